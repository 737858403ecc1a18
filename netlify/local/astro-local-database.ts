import type { AstroIntegration } from "astro";

/**
 * For `astro dev`: once Netlify's Vite plugin has started the local database, apply migrations
 * and seed the demo content, so pages and functions have data from the first request.
 */
export function localDatabase(): AstroIntegration {
  return {
    name: "no-filter:local-database",
    hooks: {
      "astro:config:setup": ({ command, updateConfig, logger }) => {
        if (command !== "dev") return;
        updateConfig({
          vite: {
            plugins: [
              {
                name: "no-filter:local-database",
                // After Netlify's plugin, which sets NETLIFY_DB_URL and the Blobs context.
                enforce: "post",
                async configureServer() {
                  if (!process.env.NETLIFY_DB_URL && !process.env.DATABASE_URL) return;
                  const { appDeps } = await import("../../src/core/app-deps.ts");
                  const { prepareLocalDatabase } = await import("./prepare-database.ts");
                  const prepared = await prepareLocalDatabase(await appDeps());
                  if (prepared.migrationsApplied.length > 0) logger.info(`Applied migrations: ${prepared.migrationsApplied.join(", ")}`);
                  if (prepared.seeded) logger.info("Seeded the demo content.");
                },
              },
            ],
          },
        });
      },
    },
  };
}
