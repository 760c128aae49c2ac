// highlight.js types only its main entry; these are its core and per-language entries.
declare module "highlight.js/lib/core" {
  import hljs from "highlight.js";
  export default hljs;
}
declare module "highlight.js/lib/languages/*" {
  import type { LanguageFn } from "highlight.js";

  const language: LanguageFn;
  export default language;
}
