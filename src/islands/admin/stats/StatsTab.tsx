import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import type { Stats } from "../../../core/stats/stats.schema.ts";
import { queries } from "../query-client.ts";
import { ListState } from "../ui/ListState.tsx";
import { figure, FigureTable } from "./FigureTable.tsx";
import { conversion, focusedPath, lastDays, type DayRange, type RangeChoice } from "./stats-range.ts";
import { NewsletterFigures } from "./NewsletterFigures.tsx";
import { AudienceFigures } from "./AudienceFigures.tsx";
import { FediverseFigures } from "./FediverseFigures.tsx";
import { PollResults } from "./PollResults.tsx";
import { VisitorsChart } from "./VisitorsChart.tsx";

const presets: { value: RangeChoice; label: string }[] = [
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "custom", label: "Custom" },
];

/** Signups per page and per source, with each one's visitors beside it for the conversion rate. */
function byPage(stats: Stats) {
  const visitors = new Map(stats.pages.map((page) => [page.path, page.visitors]));
  const rows = new Map<string, { path: string; visitors: number; signups: number; confirmed: number }>();
  for (const signup of stats.signups) {
    const row = rows.get(signup.path) ?? { path: signup.path, visitors: visitors.get(signup.path) ?? 0, signups: 0, confirmed: 0 };
    row.signups += signup.signups;
    row.confirmed += signup.confirmed;
    rows.set(signup.path, row);
  }
  return [...rows.values()].sort((a, b) => b.signups - a.signups || a.path.localeCompare(b.path));
}

function bySource(stats: Stats) {
  const visitors = new Map(stats.sources.map((source) => [source.source, source.visitors]));
  const rows = new Map<string, { source: string; visitors: number; signups: number; confirmed: number }>();
  for (const signup of stats.signups) {
    const row = rows.get(signup.source) ?? { source: signup.source, visitors: visitors.get(signup.source) ?? 0, signups: 0, confirmed: 0 };
    row.signups += signup.signups;
    row.confirmed += signup.confirmed;
    rows.set(signup.source, row);
  }
  return [...rows.values()].sort((a, b) => b.signups - a.signups || a.source.localeCompare(b.source));
}

/** The figures of one post (from a Recent Posts link). */
function PostFigures({ stats, path, onClear }: { stats: Stats; path: string; onClear: () => void }) {
  const page = stats.pages.find((row) => row.path === path) ?? { path, visitors: 0, pageviews: 0 };
  const signups = stats.signups.filter((row) => row.path === path);
  const total = signups.reduce((sum, row) => sum + row.signups, 0);
  const confirmed = signups.reduce((sum, row) => sum + row.confirmed, 0);
  return (
    <section aria-labelledby="post-figures-title" className="mt-4 border-3 border-ink p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="post-figures-title" className="font-display text-lg uppercase">
          {path}
        </h3>
        <button type="button" className="btn btn-light py-1 text-sm" onClick={onClear}>
          All pages
        </button>
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-5">
        <Figure label="Visitors" value={figure(page.visitors)} />
        <Figure label="Page views" value={figure(page.pageviews)} />
        <Figure label="Signups" value={figure(total)} />
        <Figure label="Confirmed" value={figure(confirmed)} />
        <Figure label="Conversion" value={conversion(total, page.visitors)} />
      </dl>
    </section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-sm font-semibold text-slate">{label}</dt>
      <dd className="font-display text-2xl">{value}</dd>
    </div>
  );
}

/** The Stats tab: a range, visitors over time, and what visitors did, by page, source, device and country. */
export default function StatsTab() {
  const [choice, setChoice] = useState<RangeChoice>("30");
  const [custom, setCustom] = useState<DayRange>(() => lastDays(30, new Date()));
  const [path, setPath] = useState<string | null>(() => focusedPath(location.hash));
  useEffect(() => {
    const follow = () => setPath(focusedPath(location.hash));
    addEventListener("hashchange", follow);
    return () => removeEventListener("hashchange", follow);
  }, []);
  const range = choice === "custom" ? custom : lastDays(Number(choice), new Date());
  const stats = useQuery({ ...queries.stats(range), enabled: range.from <= range.to });
  const fromId = useId();
  const toId = useId();
  const data = stats.data;

  return (
    <section aria-labelledby="stats-title" className="card p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="stats-title" className="section-title text-2xl">
          Stats
        </h2>
        <fieldset className="flex flex-wrap items-center gap-2">
          <legend className="sr-only">Range</legend>
          {presets.map((preset) => (
            <label key={preset.value} className={`admin-filter ${choice === preset.value ? "admin-filter-on" : ""}`}>
              <input
                type="radio"
                name="stats-range"
                value={preset.value}
                checked={choice === preset.value}
                onChange={() => setChoice(preset.value)}
                className="sr-only"
              />
              {preset.label}
            </label>
          ))}
        </fieldset>
      </div>
      {choice === "custom" && (
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor={fromId} className="block text-sm font-semibold">
              From
            </label>
            <input
              id={fromId}
              type="date"
              className="admin-input"
              value={custom.from}
              max={custom.to}
              onChange={(event) => setCustom({ ...custom, from: event.target.value })}
            />
          </div>
          <div>
            <label htmlFor={toId} className="block text-sm font-semibold">
              To
            </label>
            <input
              id={toId}
              type="date"
              className="admin-input"
              value={custom.to}
              min={custom.from}
              onChange={(event) => setCustom({ ...custom, to: event.target.value })}
            />
          </div>
        </div>
      )}
      <p className="mt-2 text-sm text-slate">
        Counted without cookies: a visitor is counted once a day, under a hash that can&apos;t be traced back or followed to the next day. Bots and
        your own visits are left out.
      </p>
      <ListState loading={stats.isPending && stats.fetchStatus !== "idle"} error={stats.error} empty={false} emptyText="" />
      {data && (
        <>
          {path && (
            <PostFigures
              stats={data}
              path={path}
              onClear={() => {
                history.replaceState(null, "", "#stats");
                setPath(null);
              }}
            />
          )}
          <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Totals">
            <Figure label="Visitors" value={figure(data.visitors)} />
            <Figure label="Page views" value={figure(data.pageviews)} />
            <Figure label="Signups" value={figure(data.signups.reduce((sum, row) => sum + row.signups, 0))} />
            <Figure label="Downloads" value={figure(data.downloads.reduce((sum, row) => sum + row.downloads, 0))} />
          </dl>
          <VisitorsChart series={data.series} />
          <div className="mt-6 grid gap-6 lg:grid-cols-2">
            <FigureTable
              caption="Top pages"
              rows={data.pages}
              rowKey={(row) => row.path}
              emptyText="No page views in this range."
              columns={[
                { label: "Page", cell: (row) => row.path },
                { label: "Visitors", cell: (row) => figure(row.visitors), numeric: true },
                { label: "Page views", cell: (row) => figure(row.pageviews), numeric: true },
              ]}
            />
            <FigureTable
              caption="Top sources"
              rows={data.sources}
              rowKey={(row) => row.source}
              emptyText="No visitors in this range."
              columns={[
                { label: "Source", cell: (row) => row.source },
                { label: "Visitors", cell: (row) => figure(row.visitors), numeric: true },
              ]}
            />
            <FigureTable
              caption="Devices"
              rows={data.devices}
              rowKey={(row) => row.device}
              emptyText="No visitors in this range."
              columns={[
                { label: "Device", cell: (row) => row.device },
                { label: "Visitors", cell: (row) => figure(row.visitors), numeric: true },
              ]}
            />
            <FigureTable
              caption="Countries"
              rows={data.countries}
              rowKey={(row) => row.country}
              emptyText="No visitors in this range."
              columns={[
                { label: "Country", cell: (row) => row.country },
                { label: "Visitors", cell: (row) => figure(row.visitors), numeric: true },
              ]}
            />
            <FigureTable
              caption="Signups and conversion per page"
              rows={byPage(data)}
              rowKey={(row) => row.path}
              emptyText="No signups in this range."
              columns={[
                { label: "Page", cell: (row) => row.path },
                { label: "Signups", cell: (row) => figure(row.signups), numeric: true },
                { label: "Confirmed", cell: (row) => figure(row.confirmed), numeric: true },
                { label: "Conversion", cell: (row) => conversion(row.signups, row.visitors), numeric: true },
              ]}
            />
            <FigureTable
              caption="Signups and conversion per source"
              rows={bySource(data)}
              rowKey={(row) => row.source}
              emptyText="No signups in this range."
              columns={[
                { label: "Source", cell: (row) => row.source },
                { label: "Signups", cell: (row) => figure(row.signups), numeric: true },
                { label: "Confirmed", cell: (row) => figure(row.confirmed), numeric: true },
                { label: "Conversion", cell: (row) => conversion(row.signups, row.visitors), numeric: true },
              ]}
            />
            <FigureTable
              caption="Downloads per resource"
              rows={data.downloads}
              rowKey={(row) => String(row.id)}
              emptyText="No downloads in this range."
              columns={[
                { label: "Resource", cell: (row) => row.title },
                { label: "Downloads", cell: (row) => figure(row.downloads), numeric: true },
              ]}
            />
            <FigureTable
              caption="Downloads per page and source"
              rows={data.downloadSources}
              rowKey={(row) => `${row.path} ${row.source}`}
              emptyText="No downloads in this range."
              columns={[
                { label: "Page", cell: (row) => row.path },
                { label: "Source", cell: (row) => row.source },
                { label: "Downloads", cell: (row) => figure(row.downloads), numeric: true },
              ]}
            />
            <FigureTable
              caption="Comments per post"
              rows={data.comments}
              rowKey={(row) => String(row.id)}
              emptyText="No comments shown on any post yet."
              columns={[
                { label: "Post", cell: (row) => row.title },
                { label: "Comments", cell: (row) => figure(row.comments), numeric: true },
                { label: "In this range", cell: (row) => figure(row.inRange), numeric: true },
              ]}
            />
            <FigureTable
              caption="Not found"
              rows={data.notFound}
              rowKey={(row) => row.path}
              emptyText="No missing pages asked for in this range."
              columns={[
                { label: "Address", cell: (row) => row.path },
                { label: "Views", cell: (row) => figure(row.views), numeric: true },
              ]}
            />
          </div>
          <NewsletterFigures newsletters={data.newsletters} />
          <AudienceFigures range={range} />
        </>
      )}
      <PollResults />
      <FediverseFigures />
    </section>
  );
}
