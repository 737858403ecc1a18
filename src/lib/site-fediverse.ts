/**
 * The site on the social web, as its pages show it (issue 45 point 1): the handle readers follow
 * and the ActivityPub document each page names as its machine-readable twin.
 */
import { fullHandle } from "../core/fediverse/handle.ts";
import { fediversePaths } from "../core/fediverse/paths.ts";
import { settingDefinitions } from "../core/settings/settings.schema.ts";

/** Without SITE_URL (a plain local build), the local server's default address, as the feeds use. */
const localHost = "localhost:8888";

/** `@{handle}@{site host}`: the `fediverse_handle` setting (its default when empty) at the site's host. */
export const siteHandle = (handleSetting: string | undefined, site: URL | undefined): string =>
  fullHandle(handleSetting?.trim() || settingDefinitions.fediverse_handle.defaultValue, site?.host ?? localHost);

/** A page's `rel="alternate" type="application/activity+json"`: a post's `Article`, any other page the site's actor. */
export const activityAlternatePath = (postId?: number): string => (postId === undefined ? fediversePaths.actor : fediversePaths.post(postId));
