import { useQuery } from "@tanstack/react-query";
import { queries } from "../query-client.ts";
import { ListState } from "../ui/ListState.tsx";
import SettingRow from "./SettingRow.tsx";

/** Site Settings: one row per setting, and what each one changes on the site. */
export default function SettingsTab() {
  const settings = useQuery(queries.settings);
  return (
    <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <section aria-labelledby="settings-title" className="card p-5">
        <h2 id="settings-title" className="section-title text-2xl">
          Site Settings
        </h2>
        <ListState loading={settings.isPending} error={settings.error} empty={settings.data?.length === 0} emptyText="No settings." />
        <div className="mt-4 space-y-5">
          {settings.data?.map((setting) => (
            <SettingRow key={setting.key} setting={setting} />
          ))}
        </div>
      </section>
      <aside aria-labelledby="settings-help-title" className="card h-fit p-5">
        <h2 id="settings-help-title" className="section-title text-xl">
          What these change
        </h2>
        <dl className="mt-3 space-y-3 text-sm">
          <div>
            <dt className="font-bold">Hero title, subtitle and description</dt>
            <dd>The big headline, the line under it and the paragraph at the top of the home page.</dd>
          </div>
          <div>
            <dt className="font-bold">Social links</dt>
            <dd>
              Your video channel (YouTube), professional network (LinkedIn), microblog (X) and photo sharing (Instagram, TikTok) profiles: the icons
              in the footer and the Watch on YouTube buttons. Use full https:// addresses. Don&apos;t show leaves a link out of the site altogether.
            </dd>
          </div>
          <div>
            <dt className="font-bold">About and mission</dt>
            <dd>The text of the About section and of its Our Mission card on the home page.</dd>
          </div>
          <div>
            <dt className="font-bold">Stats and claims</dt>
            <dd>
              The three numbers of the home page&apos;s About section and the two in the Downloads page&apos;s header, each a figure and its label
              (&ldquo;500+ Founders Helped&rdquo;: the first word is the figure). The built-in ones are examples: put your own, or Don&apos;t show.
            </dd>
          </div>
          <div>
            <dt className="font-bold">Feeds</dt>
            <dd>
              What each post in the RSS, Atom and JSON feeds carries: full (the whole post with its cover, the default) or excerpt (its summary, its
              cover and a link to the post).
            </dd>
          </div>
          <div>
            <dt className="font-bold">Share image</dt>
            <dd>
              The picture a link to a post shows on social sites and in chat apps: cover (the post&apos;s cover; a post without one shares a card
              drawn from its title and category, the default) or generated (always that card).
            </dd>
          </div>
          <div>
            <dt className="font-bold">Download counts</dt>
            <dd>
              A resource&apos;s count shows on its card once it reaches this number (0: always), so a new resource doesn&apos;t say &ldquo;0
              downloads&rdquo;.
            </dd>
          </div>
          <div>
            <dt className="font-bold">Comments</dt>
            <dd>
              Comments on or off for the whole site (off: no comments under any post, and nobody can write one). Hold words: a comment with any of
              these words waits in Comments for your approval. Link limit: a comment with more links than this waits too. A reader&apos;s first
              comment always waits. To close one post&apos;s comments, use its form in Blog Posts.
            </dd>
          </div>
          <div>
            <dt className="font-bold">Contact email</dt>
            <dd>Where the Get in Touch and Contact links send mail.</dd>
          </div>
          <div>
            <dt className="font-bold">Postal address</dt>
            <dd>
              Shown at the foot of every email the site sends: anti-spam law requires a real postal address in each one, so replace the example
              address before you send anything. Shift+Enter starts a new line.
            </dd>
          </div>
          <div>
            <dt className="font-bold">When a send pauses itself</dt>
            <dd>
              A newsletter send stops on its own when spam complaints reach this share of the messages delivered (default 0.3 %, Gmail&apos;s and
              Yahoo&apos;s limit) or hard bounces this share of those sent (default 5 %), once there are at least 5. You then resume or cancel it.
            </dd>
          </div>
          <div>
            <dt className="font-bold">Empty means default</dt>
            <dd>
              Clear a field and save it to bring back the built-in text (Don&apos;t show is the way to leave something out). Changes go live after the
              site rebuilds, in a few seconds.
            </dd>
          </div>
        </dl>
      </aside>
    </div>
  );
}
