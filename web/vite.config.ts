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
    // One chunk of ~730 kB (~230 kB gzipped): the SDK's React hook brings @langchain/core and
    // langsmith along. Fine for a workspace app; split it when a second route needs it.
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      // The SDK's React entry marks itself "use client" (a Next.js directive); meaningless here.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
  server: { proxy: { "/api": "http://127.0.0.1:2026" } },
});
