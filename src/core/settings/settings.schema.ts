import { z } from "zod";

/** How the dashboard edits a setting: text and url are text fields; image is a file input. */
export type SettingType = "text" | "url" | "image";

interface SettingDefinition {
  description: string;
  type: SettingType;
  /** Shown whenever the stored value is missing or empty. */
  defaultValue: string;
  /** The owner may turn it off ("Don't show"): the site then leaves it out, which empty never does (empty is the default). */
  hideable?: true;
  /** The only values it takes: the dashboard offers them in a list, the value check refuses any other. */
  choices?: readonly string[];
  /**
   * No page of the site shows it (it steers mail, comments, federation or payments): a change asks
   * for no site build and is not part of every page's key, which would re-render all of them
   * (10,000 posts: a full build's work). `tests/unit/off-site-settings.test.ts` keeps it true.
   */
  offSite?: true;
}

/**
 * The 11 settings of SPEC §3, in the order the dashboard lists them (with SPEC §9's five claims
 * before the contact email, beside the About texts they sit with), then `mailing_address`: the
 * postal address anti-spam law (the US CAN-SPAM Act) requires in every email's footer, then the two
 * thresholds at which a newsletter send pauses itself.
 */
export const settingDefinitions = {
  hero_title: {
    description: "Hero title",
    type: "text",
    defaultValue: "Wins. Fails. Funding. No Filter.",
  },
  hero_subtitle: {
    description: "Hero subtitle",
    type: "text",
    defaultValue: "The founder stories nobody posts on LinkedIn.",
  },
  hero_description: {
    description: "Hero description",
    type: "text",
    defaultValue:
      "Real numbers, real mistakes and the funding rounds that almost didn't close — told straight, so you can build with your eyes open.",
  },
  youtube_url: {
    description: "YouTube channel link",
    type: "url",
    defaultValue: "https://www.youtube.com/@nofilter",
    hideable: true,
  },
  linkedin_url: {
    description: "LinkedIn profile link",
    type: "url",
    defaultValue: "https://www.linkedin.com/company/nofilter",
    hideable: true,
  },
  twitter_url: {
    description: "X (Twitter) profile link",
    type: "url",
    defaultValue: "https://x.com/nofilter",
    hideable: true,
  },
  instagram_url: {
    description: "Instagram profile link",
    type: "url",
    defaultValue: "https://www.instagram.com/nofilter",
    hideable: true,
  },
  tiktok_url: {
    description: "TikTok profile link",
    type: "url",
    defaultValue: "https://www.tiktok.com/@nofilter",
    hideable: true,
  },
  about_description: {
    description: "About section text",
    type: "text",
    defaultValue:
      "No Filter is where founders tell the truth: the launches that flopped, the cash crunches, the pitches that finally landed. No hype, no highlight reels — just what actually happened and what we'd do differently.",
  },
  mission_text: {
    description: "Our Mission card text",
    type: "text",
    defaultValue: "To give every aspiring founder the honest playbook we wish we'd had: practical, free and unfiltered.",
  },
  // SPEC §9's claims, now the owner's (issue 41): each a figure and its label, hideable.
  claim_founders_helped: {
    description: "About stat 1 (figure and label)",
    type: "text",
    defaultValue: "500+ Founders Helped",
    hideable: true,
  },
  claim_truths_shared: {
    description: "About stat 2 (figure and label)",
    type: "text",
    defaultValue: "50+ Brutal Truths Shared",
    hideable: true,
  },
  claim_downloads: {
    description: "About stat 3 (figure and label)",
    type: "text",
    defaultValue: "10k+ Downloads",
    hideable: true,
  },
  claim_downloads_page_downloads: {
    description: "Downloads page claim 1 (figure and label)",
    type: "text",
    defaultValue: "10,000+ downloads",
    hideable: true,
  },
  claim_downloads_page_founders: {
    description: "Downloads page claim 2 (figure and label)",
    type: "text",
    defaultValue: "5,000+ founders",
    hideable: true,
  },
  download_count_minimum: {
    description: "Show a resource's download count from this many downloads (0: always)",
    type: "text",
    defaultValue: "0",
  },
  // Issue 47 point 2: the "Support this work" box's amounts, shown only once Stripe is set up.
  tip_amounts: {
    description: "Tip amounts offered in the Support box (whole units of the tips' currency, comma-separated; empty hides the box)",
    type: "text",
    defaultValue: "3, 5, 10",
  },
  // Issue 47 point 4: the supporter membership's prices, in minor units of the resources' currency
  // (`usd` unless a resource says otherwise: the membership uses `usd`); empty turns that interval off.
  membership_monthly_price: {
    description: "Supporter membership, monthly price (minor units, e.g. 500 for $5.00; empty: no monthly membership)",
    type: "text",
    defaultValue: "",
  },
  membership_yearly_price: {
    description: "Supporter membership, yearly price (minor units, e.g. 5000 for $50.00; empty: no yearly membership)",
    type: "text",
    defaultValue: "",
  },
  // Issue 47 point 3: how long a paid resource's link works (the thank-you page's, the receipt's, the account page's).
  purchase_link_days: {
    description: "A paid resource's download link works for this many days (1 to 365)",
    type: "text",
    defaultValue: "30",
    offSite: true,
  },
  contact_email: {
    description: "Contact email address",
    type: "text",
    defaultValue: "hello@example.com",
  },
  mailing_address: {
    description: "Postal address (shown in every email's footer)",
    type: "text",
    // A placeholder on several lines: obviously not a real address, and it shows that line breaks are kept.
    defaultValue: "No Filter\n123 Example Street\nSpringfield, ST 00000\nUSA",
    offSite: true,
  },
  // A send stops itself past these (issue 28; docs/decisions/0030-bounces-and-complaints.md):
  // Gmail's and Yahoo's 0.3 % spam-complaint line, and a hard-bounce rate no clean list reaches.
  complaint_pause_percent: {
    description: "Pause a send when spam complaints reach this % of messages delivered",
    type: "text",
    defaultValue: "0.3",
    offSite: true,
  },
  bounce_pause_percent: {
    description: "Pause a send when hard bounces reach this % of messages sent",
    type: "text",
    defaultValue: "5",
    offSite: true,
  },
  // The weekly digest (issue 42 point 2): the moment it goes to readers on the weekly frequency,
  // with the posts of the 7 days before it. UTC, as every time the server keeps.
  digest_day: {
    description: "Weekly digest day (monday to sunday, UTC)",
    type: "text",
    defaultValue: "monday",
    offSite: true,
  },
  digest_hour: {
    description: "Weekly digest hour (0 to 23, UTC)",
    type: "text",
    defaultValue: "9",
    offSite: true,
  },
  // Issue 43 point 1: what a feed item carries (src/core/feeds/feeds.ts).
  feed_content: {
    description: "Feeds (RSS, Atom, JSON Feed) carry: full (the whole post) or excerpt",
    type: "text",
    defaultValue: "full",
    choices: ["full", "excerpt"],
  },
  // Issue 43 point 2: the WebSub hub feeds and pages name (`rel="hub"`) and the site pings after a change (src/core/publishing/websub.ts).
  websub_hub: {
    description: "WebSub hub for instant feed updates (empty: Google's public hub; under npm start, the local hub)",
    type: "url",
    defaultValue: "",
  },
  // Issue 43 point 4: a post's og:image is its cover, or its generated share image (always for a post without a cover).
  share_image: {
    description: "A post's share image (og:image): cover (its cover, the generated card when it has none) or generated (always the card)",
    type: "text",
    defaultValue: "cover",
    choices: ["cover", "generated"],
  },
  // Issue 44 points 3 and 4: comments under posts, and the rules that hold one for approval.
  comments_enabled: {
    description: "Comments under posts: on or off (off hides every thread and refuses new comments)",
    type: "text",
    defaultValue: "on",
    choices: ["on", "off"],
  },
  comment_link_limit: {
    description: "Hold a comment for approval when it has more links than this",
    type: "text",
    defaultValue: "2",
    offSite: true,
  },
  comment_hold_words: {
    description: "Hold a comment for approval when it contains any of these words (comma-separated; empty: none)",
    type: "text",
    defaultValue: "",
    offSite: true,
  },
  // Issue 45 point 1: the site's fediverse name, `@{handle}@{host}` (src/core/fediverse/handle.ts).
  fediverse_handle: {
    description: "Fediverse handle: readers follow @handle@your-site from Mastodon (letters, digits and underscores)",
    type: "text",
    defaultValue: "nofilter",
  },
  // Issue 45 point 3: what a post's Create carries to followers (docs/fediverse.md).
  fediverse_content: {
    description: "What followers on the fediverse receive: the whole post (full) or its excerpt and a link (excerpt)",
    type: "text",
    defaultValue: "full",
    choices: ["full", "excerpt"],
    offSite: true,
  },
} as const satisfies Record<string, SettingDefinition>;

/** What a fediverse handle may be: Mastodon's own rule for a username (letters, digits, underscores, up to 30). */
export const handlePattern = /^[a-z0-9_]{1,30}$/;

/** The days the digest may go out on, as `digest_day` spells them (index = JavaScript's `getUTCDay`). */
export const digestDays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

export type SettingKey = keyof typeof settingDefinitions;

/** The claims: the home About stats, then the `/downloads` hero's. */
export const aboutClaimKeys = ["claim_founders_helped", "claim_truths_shared", "claim_downloads"] as const satisfies readonly SettingKey[];
export const downloadsClaimKeys = ["claim_downloads_page_downloads", "claim_downloads_page_founders"] as const satisfies readonly SettingKey[];
export const claimKeys = [...aboutClaimKeys, ...downloadsClaimKeys] as const;

/**
 * A claim as the page sets it: the figure large, the label under it. The figure is the first word
 * ("500+", "10k+"); a claim of one word is all figure.
 */
export function splitClaim(claim: string): { figure: string; label: string } {
  const text = claim.trim();
  const space = text.search(/\s/);
  return space === -1 ? { figure: text, label: "" } : { figure: text.slice(0, space), label: text.slice(space).trim() };
}

/** The values a setting takes when it is a choice (`feed_content`), else undefined. */
export const settingChoices = (key: SettingKey): readonly string[] | undefined => (settingDefinitions[key] as SettingDefinition).choices;

/** Whether the owner may turn this setting off. */
export const isHideable = (key: SettingKey): boolean => (settingDefinitions[key] as SettingDefinition).hideable === true;

export const settingKeys = Object.keys(settingDefinitions) as SettingKey[];

/** Whether a page of the site shows this setting (see `offSite`). */
export const isShownOnSite = (key: SettingKey): boolean => (settingDefinitions[key] as SettingDefinition).offSite !== true;

export const settingKeySchema = z.enum(settingKeys as [SettingKey, ...SettingKey[]], {
  error: "Unknown setting",
});

/** One setting as the API and the dashboard see it. */
export const siteSettingSchema = z.object({
  key: settingKeySchema,
  value: z.string(),
  description: z.string(),
  type: z.enum(["text", "url", "image"]),
  /** Turned off by the owner ("Don't show"): `value` is then empty and the site leaves it out. Absent: shown. */
  hidden: z.boolean().optional(),
});

export type SiteSetting = z.output<typeof siteSettingSchema>;

/** Longest value a setting may hold. */
export const maxSettingLength = 2000;

/**
 * The value a setting may take, by its type (one schema for the dashboard and the API). Empty is
 * allowed everywhere: it brings the built-in default back. Line breaks inside a text are kept (the
 * postal address is typed on several lines); only the ends are trimmed.
 */
export function settingValueSchema(key: SettingKey) {
  const base = z
    .string({ error: "Value is required" })
    .trim()
    .max(maxSettingLength, `Must be ${String(maxSettingLength)} characters or less`);
  if (key === "contact_email") {
    return base.refine((value) => value === "" || z.email().safeParse(value).success, "Please enter a valid email address.");
  }
  if (key === "comment_link_limit") {
    return base.refine(
      (value) => value === "" || /^\d{1,3}$/.test(value),
      "Please enter a whole number, e.g. 2 (0 holds every comment with a link).",
    );
  }
  if (key === "membership_monthly_price" || key === "membership_yearly_price") {
    return base.refine(
      (value) => value === "" || (/^\d{1,8}$/.test(value) && Number(value) >= 100),
      "Please enter a whole number of minor units, at least 100 (e.g. 500 for $5.00), or leave it empty.",
    );
  }
  if (key === "purchase_link_days") {
    return base.refine(
      (value) => value === "" || (/^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= 365),
      "Please enter a whole number of days from 1 to 365.",
    );
  }
  if (key === "fediverse_handle") {
    return base.refine(
      (value) => value === "" || handlePattern.test(value),
      "Please enter up to 30 lower-case letters, digits or underscores, e.g. nofilter.",
    );
  }
  if (key === "download_count_minimum") {
    return base.refine((value) => value === "" || /^\d{1,7}$/.test(value), "Please enter a whole number, e.g. 50 (0 shows every count).");
  }
  if (key === "complaint_pause_percent" || key === "bounce_pause_percent") {
    return base.refine(
      (value) => value === "" || (/^\d{1,3}(\.\d{1,3})?$/.test(value) && Number(value) > 0 && Number(value) <= 100),
      "Please enter a percentage between 0 and 100, e.g. 0.3.",
    );
  }
  const choices = settingChoices(key);
  if (choices) {
    return base.refine((value) => value === "" || choices.includes(value), `Please choose one of: ${choices.join(", ")}.`);
  }
  if (key === "digest_day") {
    return base.refine(
      (value) => value === "" || (digestDays as readonly string[]).includes(value.toLowerCase()),
      "Please enter a day of the week, e.g. monday.",
    );
  }
  if (key === "digest_hour") {
    return base.refine(
      (value) => value === "" || (/^\d{1,2}$/.test(value) && Number(value) <= 23),
      "Please enter an hour from 0 to 23 (UTC), e.g. 9.",
    );
  }
  if (settingDefinitions[key].type === "url") {
    return base
      .transform(withScheme)
      .refine((value) => value === "" || z.url({ protocol: /^https?$/ }).safeParse(value).success, "Please enter a full http:// or https:// URL.");
  }
  return base;
}

/**
 * A link typed as a bare host (`x.com/nofilter`, `www.linkedin.com/in/me`) with `https://` in front,
 * as every browser's address bar reads it (issue 41 point 6); anything else unchanged, for the URL
 * check to judge.
 */
export function withScheme(value: string): string {
  return /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(?::\d{1,5})?(?:[/?#].*)?$/i.test(value) ? `https://${value}` : value;
}

/** The body of `PUT /api/site-settings/{key}` (a turned-off setting is shown again by any save). */
export const settingUpdateSchema = z.object({ value: z.string({ error: "Value is required" }) });
