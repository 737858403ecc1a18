import { useQuery } from "@tanstack/react-query";
import type { AudienceStats } from "../../../core/stats/stats.schema.ts";
import { queries } from "../query-client.ts";
import { ListState } from "../ui/ListState.tsx";
import { figure, FigureTable } from "./FigureTable.tsx";
import type { DayRange } from "./stats-range.ts";

/** Net growth with its sign: "+3", "−2", "0". */
export const growth = (row: { gained: number; left: number }) => {
  const net = row.gained - row.left;
  return net > 0 ? `+${figure(net)}` : net < 0 ? `−${figure(-net)}` : "0";
};

const people = [
  { label: "Subscribers", cell: (row: AudienceStats["everything"]) => figure(row.subscribers), numeric: true },
  { label: "Gained", cell: (row: AudienceStats["everything"]) => figure(row.gained), numeric: true },
  { label: "Left", cell: (row: AudienceStats["everything"]) => figure(row.left), numeric: true },
  { label: "Growth", cell: growth, numeric: true },
] as const;

/**
 * Readers per topic and per subscriber tag, their growth in the range, and the newsletter clicks
 * that belong to each (decision 0081): two tables with captions, read alike by eye and screen reader.
 */
export function AudienceFigures({ range }: { range: DayRange }) {
  const audience = useQuery({ ...queries.statsAudience(range), enabled: range.from <= range.to });
  const data = audience.data;
  const topicRows = data
    ? [{ slug: "", name: "Everything (every topic)", ...data.everything, newsletters: 0, delivered: 0, clicks: 0, clickers: 0 }, ...data.topics]
    : [];
  return (
    <section aria-labelledby="audience-figures-title" className="mt-8">
      <h3 id="audience-figures-title" className="font-display text-lg uppercase">
        Topics and tags
      </h3>
      <p className="mt-1 text-sm text-slate">
        A topic&apos;s subscribers are the readers who chose it; those who follow everything get its posts too. Its clicks are on the newsletters of
        its posts sent in this range. A tag&apos;s clicks are its people&apos;s, on any newsletter sent in this range. Gained: followed (or tagged) in
        this range; left: of those who follow it (or carry it), who unsubscribed, bounced or complained in this range.
      </p>
      <ListState loading={audience.isPending && audience.fetchStatus !== "idle"} error={audience.error} empty={false} emptyText="" />
      {data && (
        <div className="grid gap-6 lg:grid-cols-2">
          <FigureTable
            caption="Readers and clicks per topic"
            rows={topicRows}
            rowKey={(row) => row.slug || "everything"}
            emptyText=""
            columns={[
              { label: "Topic", cell: (row) => row.name },
              ...people,
              { label: "Newsletters", cell: (row) => (row.slug ? figure(row.newsletters) : "—"), numeric: true },
              { label: "Clicks", cell: (row) => (row.slug ? figure(row.clicks) : "—"), numeric: true },
              { label: "People who clicked", cell: (row) => (row.slug ? figure(row.clickers) : "—"), numeric: true },
            ]}
          />
          <FigureTable
            caption="Readers and clicks per subscriber tag"
            rows={data.tags}
            rowKey={(row) => row.slug}
            emptyText="No subscriber carries a tag yet."
            columns={[
              { label: "Tag", cell: (row) => row.slug },
              ...people,
              { label: "Clicks", cell: (row) => figure(row.clicks), numeric: true },
              { label: "People who clicked", cell: (row) => figure(row.clickers), numeric: true },
            ]}
          />
        </div>
      )}
    </section>
  );
}
