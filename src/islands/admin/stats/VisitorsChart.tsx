import { useEffect, useRef, useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { Stats } from "../../../core/stats/stats.schema.ts";
import { figure, FigureTable } from "./FigureTable.tsx";

const ink = "#0a0a0a";
const signal = "#b91c1c";

/**
 * Visitors and page views per day: a Recharts line chart for the eye, and the same figures as a
 * table under it (the chart is hidden from screen readers, which read the table).
 */
export function VisitorsChart({ series }: { series: Stats["series"] }) {
  const size = useShownSize();
  return (
    <figure className="mt-4">
      <div aria-hidden="true" className="h-64 w-full" data-testid="visitors-chart" ref={size.ref}>
        {size.width > 0 && (
          <LineChart
            width={size.width}
            height={size.height}
            data={series}
            margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid stroke="#d4d4d4" strokeDasharray="3 3" />
            <XAxis dataKey="date" tick={{ fontSize: 12 }} minTickGap={24} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={40} />
            <Tooltip />
            <Legend />
            <Line type="monotone" dataKey="visitors" name="Visitors" stroke={signal} strokeWidth={3} dot={false} isAnimationActive={false} />
            <Line type="monotone" dataKey="pageviews" name="Page views" stroke={ink} strokeWidth={2} dot={false} isAnimationActive={false} />
          </LineChart>
        )}
      </div>
      <figcaption className="sr-only">Visitors and page views per day; the table below holds the same figures.</figcaption>
      <details className="mt-2">
        <summary className="cursor-pointer font-semibold">Figures per day</summary>
        <FigureTable
          caption="Visitors and page views per day"
          rows={series}
          rowKey={(row) => row.date}
          emptyText="No days in this range."
          columns={[
            { label: "Date", cell: (row) => row.date },
            { label: "Visitors", cell: (row) => figure(row.visitors), numeric: true },
            { label: "Page views", cell: (row) => figure(row.pageviews), numeric: true },
          ]}
        />
      </details>
    </figure>
  );
}

/**
 * The chart box's size while it is shown. The Stats section stays mounted but hidden when another
 * is open, and Recharts' ResponsiveContainer then measured 0 × 0 and warned in the console on every
 * other section (issue 41 point 6): the last size seen on screen is kept instead.
 */
export function useShownSize() {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const observer = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry?.contentRect.width ?? 0);
      const height = Math.floor(entry?.contentRect.height ?? 0);
      if (width > 0 && height > 0) setSize((before) => (before.width === width && before.height === height ? before : { width, height }));
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return { ref, ...size };
}
