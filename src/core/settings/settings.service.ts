import type { SqlQueryable } from "../db/sql-executor.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { settingDefinitions, settingKeys, settingKeySchema, settingValueSchema, type SettingKey, type SiteSetting } from "./settings.schema.ts";

export interface SettingsDeps {
  db: SqlQueryable;
}

/** All known settings, each with its stored value or, when missing or empty, its default. */
export async function listSiteSettings(deps: SettingsDeps): Promise<SiteSetting[]> {
  const { rows } = await deps.db.query<{ key: string; value: string }>("SELECT key, value FROM site_settings WHERE key = ANY($1)", [settingKeys]);
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

/**
 * Stores one setting after checking it by its type; an unknown key is a 404. Asks for a rebuild,
 * since the pages show these texts. Returns the setting as the list shows it.
 */
export async function updateSiteSetting(
  deps: SettingsDeps & { rebuild: () => void; now: () => Date },
  key: string,
  rawValue: string,
): Promise<SiteSetting> {
  const knownKey = settingKeySchema.safeParse(key);
  if (!knownKey.success) throw new NotFoundError("Unknown setting");
  const parsed = settingValueSchema(knownKey.data).safeParse(rawValue);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? "Invalid value");
  await deps.db.query(
    `INSERT INTO site_settings (key, value, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [knownKey.data, parsed.data, deps.now()],
  );
  deps.rebuild();
  const definition = settingDefinitions[knownKey.data];
  return {
    key: knownKey.data,
    value: parsed.data || definition.defaultValue,
    description: definition.description,
    type: definition.type,
  };
}
