import type { SqlQueryable } from "../db/sql-executor.ts";
import { settingDefinitions, settingKeys, type SettingKey, type SiteSetting } from "./settings.schema.ts";

export interface SettingsDeps {
  db: SqlQueryable;
}

/** All known settings, each with its stored value or, when missing or empty, its default. */
export async function listSiteSettings(deps: SettingsDeps): Promise<SiteSetting[]> {
  const { rows } = await deps.db.query<{ key: string; value: string }>(
    "SELECT key, value FROM site_settings WHERE key = ANY($1)",
    [settingKeys],
  );
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  return settingKeys.map((key) => {
    const definition = settingDefinitions[key];
    const value = stored.get(key)?.trim();
    return {
      key,
      value: value ? value : definition.defaultValue,
      description: definition.description,
      type: definition.type,
    };
  });
}

/** The settings as a key → value map, for pages. */
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
