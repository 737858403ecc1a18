import type { SqlQueryable } from "../db/sql-executor.ts";
import { settingDefinitions } from "../settings/settings.schema.ts";
import { siteSettingValues } from "../settings/settings.service.ts";

/** The line of the seeded postal address that no real one has: its street. */
const placeholderStreet = "123 Example Street";

/** What the owner reads when mail waits for a real postal address: where to set it. */
export const placeholderAddressMessage = `Set your real postal address first: Site Settings → “${settingDefinitions.mailing_address.description}”. The law (CAN-SPAM) requires it in every email, and it still says “${placeholderStreet}”.`;

/**
 * Whether the footer's postal address is still the seeded placeholder. Only production asks
 * (`production` in the feature's needs, set by the app): locally the placeholder is fine.
 */
export async function usesPlaceholderAddress(deps: { db: SqlQueryable }): Promise<boolean> {
  const settings = await siteSettingValues(deps);
  return settings.mailing_address.includes(placeholderStreet);
}
