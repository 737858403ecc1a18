import type { SqlQueryable } from "../db/sql-executor.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import {
  isHideable,
  isShownOnSite,
  settingDefinitions,
  settingKeys,
  settingKeySchema,
  settingValueSchema,
  type SettingKey,
  type SiteSetting,
} from "./settings.schema.ts";

export interface SettingsDeps {
  db: SqlQueryable;
}

/**
 * What a turned-off setting stores: a value no check lets through for a link, kept in the row's
 * value so a backup and a restore carry it as they carry every other setting.
 */
export const hiddenSettingValue = "(hidden)";

/** A setting as the list shows it, from what is stored (missing or empty: the default). */
function shown(key: SettingKey, stored: string | undefined): SiteSetting {
  const definition = settingDefinitions[key];
  const value = stored?.trim();
  const base = { key, description: definition.description, type: definition.type };
  if (value === hiddenSettingValue && isHideable(key)) return { ...base, value: "", hidden: true };
  return { ...base, value: value ? value : definition.defaultValue };
}

/** All known settings, each with its stored value or, when missing or empty, its default; a turned-off one is empty and `hidden`. */
export async function listSiteSettings(deps: SettingsDeps): Promise<SiteSetting[]> {
  const { rows } = await deps.db.query<{ key: string; value: string }>("SELECT key, value FROM site_settings WHERE key = ANY($1)", [settingKeys]);
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  return settingKeys.map((key) => shown(key, stored.get(key)));
}

/** The settings as a key → value map, for pages: a turned-off setting is empty, and a page leaves it out. */
export async function siteSettingValues(deps: SettingsDeps): Promise<Record<SettingKey, string>> {
  const settings = await listSiteSettings(deps);
  return Object.fromEntries(settings.map((setting) => [setting.key, setting.value])) as Record<SettingKey, string>;
}

/** Stores every setting at its default unless it has a value already (demo content, fresh installs). */
export async function seedDefaultSettings(deps: SettingsDeps): Promise<void> {
  for (const key of settingKeys) {
    await deps.db.query("INSERT INTO site_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", [
      key,
      settingDefinitions[key].defaultValue,
    ]);
  }
}

/**
 * Stores one setting after checking it by its type; an unknown key is a 404. Asks for a rebuild
 * when a page shows it. Returns the setting as the list shows it.
 */
export async function updateSiteSetting(
  deps: SettingsDeps & { rebuild: () => void; now: () => Date },
  key: string,
  rawValue: string,
  { hidden = false }: { hidden?: boolean } = {},
): Promise<SiteSetting> {
  const knownKey = settingKeySchema.safeParse(key);
  if (!knownKey.success) throw new NotFoundError("Unknown setting");
  if (hidden && !isHideable(knownKey.data)) throw new ValidationError("This setting can't be hidden.");
  const parsed = settingValueSchema(knownKey.data).safeParse(rawValue);
  if (!hidden && !parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? "Invalid value");
  const value = hidden ? hiddenSettingValue : (parsed.data ?? "");
  await deps.db.query(
    `INSERT INTO site_settings (key, value, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [knownKey.data, value, deps.now()],
  );
  if (isShownOnSite(knownKey.data)) deps.rebuild();
  return shown(knownKey.data, value);
}

/** Turns these hideable settings off at once, without a rebuild (the caller asks for one); returns how many. */
export async function hideSettings(deps: SettingsDeps & { now: () => Date }, keys: readonly SettingKey[]): Promise<number> {
  const hideable = keys.filter(isHideable);
  for (const key of hideable) {
    await deps.db.query(
      `INSERT INTO site_settings (key, value, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
      [key, hiddenSettingValue, deps.now()],
    );
  }
  return hideable.length;
}
