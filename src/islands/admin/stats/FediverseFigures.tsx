import { useQuery } from "@tanstack/react-query";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { queries } from "../query-client.ts";
import { ListState } from "../ui/ListState.tsx";
import { figure, FigureTable } from "./FigureTable.tsx";
import { useShownSize } from "./VisitorsChart.tsx";

const signal = "#b91c1c";

/**
 * The site on the fediverse (issue 45 points 2 and 5): followers at the end of each of the last 90
 * days, drawn as the visitors are (the chart for the eye, the same figures in a table), and each
 * post's likes, boosts and replies.
 */
export function FediverseFigures() {
  const stats = useQuery(queries.statsFediverse);
  const size = useShownSize();
  const data = stats.data;
  return (
    <section aria-labelledby="fediverse-figures-title" className="mt-8 border-t-3 border-ink pt-5">
      <h3 id="fediverse-figures-title" className="section-title text-xl">
        Fediverse
      </h3>
      <p className="mt-1 text-sm text-slate">Followers over the last 90 days, and what the fediverse did with each post.</p>
      <ListState loading={stats.isPending} error={stats.error} empty={false} emptyText="" />
      {data && (
        <>
          <p className="mt-3">
            <span className="font-display text-2xl" data-testid="stats-fediverse-followers">
              {figure(data.followers.at(-1)?.total ?? 0)}
            </span>{" "}
            followers today
          </p>
          <figure className="mt-2">
            <div aria-hidden="true" className="h-48 w-full" data-testid="followers-chart" ref={size.ref}>
              {size.width > 0 && (
                <LineChart
                  width={size.width}
                  height={size.height}
                  data={data.followers}
                  margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
                  accessibilityLayer={false}
                >
                  <CartesianGrid stroke="#d4d4d4" strokeDasharray="3 3" />
                  <XAxis dataKey="day" tick={{ fontSize: 12 }} minTickGap={24} />
                  <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={40} />
                  <Tooltip />
                  <Line type="stepAfter" dataKey="total" name="Followers" stroke={signal} strokeWidth={3} dot={false} isAnimationActive={false} />
                </LineChart>
              )}
            </div>
            <figcaption className="sr-only">Followers at the end of each day; the table below holds the same figures.</figcaption>
            <details className="mt-2">
              <summary className="cursor-pointer font-semibold">Followers per day</summary>
              <FigureTable
                caption="Followers at the end of each day"
                rows={data.followers}
                rowKey={(row) => row.day}
                emptyText="No days yet."
                columns={[
                  { label: "Day", cell: (row) => row.day },
                  { label: "Followers", cell: (row) => figure(row.total), numeric: true },
                ]}
              />
            </details>
          </figure>
          <FigureTable
            caption="Likes, boosts and replies per post"
            rows={data.posts}
            rowKey={(row) => String(row.postId)}
            emptyText="No likes, boosts or replies from the fediverse yet."
            columns={[
              { label: "Post", cell: (row) => row.title },
              { label: "Likes", cell: (row) => figure(row.likes), numeric: true },
              { label: "Boosts", cell: (row) => figure(row.boosts), numeric: true },
              { label: "Replies", cell: (row) => figure(row.replies), numeric: true },
            ]}
          />
        </>
      )}
    </section>
  );
}
