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
                  const { bootApp } = await import("../../src/app/boot-app.ts");
                  const { prepareLocalDatabase } = await import("./prepare-database.ts");
                  // Only to prepare the database: pages and functions put their own app together.
                  const app = await bootApp();
                  try {
                    const prepared = await prepareLocalDatabase(app.deps);
                    if (prepared.migrationsApplied.length > 0) logger.info(`Applied migrations: ${prepared.migrationsApplied.join(", ")}`);
                    if (prepared.seeded) logger.info("Seeded the demo content.");
                  } finally {
                    await app.close();
                  }
                },
              },
            ],
          },
        });
      },
    },
  };
}
