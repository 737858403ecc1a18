import type { AstroIntegration, AstroPrerenderer } from "astro";

/**
 * What the long-lived build process (netlify/local/build-worker.ts) and the site builder say to each
 * other, and the integration through which that process keeps a full build's renderer
 * (docs/decisions/0091-kept-renderer.md).
 */

/** Where the build process puts its `KeepRenderer` for the integration (the config loads apart from it). */
export const keptRendererKey = Symbol.for("no-filter.kept-renderer");

/** Wraps Astro's default prerenderer so that the build process keeps it after the build. */
export type KeepRenderer = (standard: AstroPrerenderer) => AstroPrerenderer;

/** One job for the build process: a full build (its first and only), then incremental passes on it. */
export interface BuildJob {
  id: number;
  kind: "full" | "partial";
  projectRoot: string;
  /** The job's own variables: `ASTRO_OUT_DIR`, and the page keys' (src/adapters/page-keys.ts). */
  env: Record<string, string>;
}

export interface BuildJobResult {
  id: number;
  ok: boolean;
  /** A partial this process cannot serve (its full build kept no renderer): build it another way. */
  unavailable?: boolean;
  tail: string;
}

/** In the build process only: hands Astro's default prerenderer to it; anywhere else, nothing. */
export function keptRenderer(): AstroIntegration {
  return {
    name: "no-filter:kept-renderer",
    hooks: {
      "astro:build:start": ({ setPrerenderer }) => {
        const keep = (globalThis as Record<symbol, KeepRenderer | undefined>)[keptRendererKey];
        if (keep) setPrerenderer(keep);
      },
    },
  };
}
