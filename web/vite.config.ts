import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = fileURLToPath(new URL(".", import.meta.url));

/**
 * The web workspace: a plain React SPA (Vite's own JSX transform, no plugin). `npm start` builds it
 * into web/dist, which the gateway serves at `/`; `vite --config web/vite.config.ts` serves it in
 * development and proxies `/api` to a running `fawn serve` on :2026.
 */
export default defineConfig({
  root: here,
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    // The LangGraph client the shell needs brings @langchain/core and langsmith along: the entry
    // chunk stays near 450 kB whatever we split (see docs/performance.md, "Web").
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // React in a chunk of its own: a new build of the app's code leaves it cached in the
        // browser. The chat (with the SDK's stream hook) is a lazy chunk of its own.
        codeSplitting: {
          groups: [{ name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
      // The SDK's React entry marks itself "use client" (a Next.js directive); meaningless here.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
  server: { proxy: { "/api": "http://127.0.0.1:2026" } },
});
