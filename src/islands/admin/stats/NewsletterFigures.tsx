import type { Stats } from "../../../core/stats/stats.schema.ts";
import { figure, FigureTable } from "./FigureTable.tsx";

/**
 * Each newsletter sent in the range: delivered, unique clicks, unsubscribes, and clicks per link.
 * No open rate, and the tab says why.
 */
export function NewsletterFigures({ newsletters }: { newsletters: Stats["newsletters"] }) {
  return (
    <section aria-labelledby="newsletter-figures-title" className="mt-8">
      <h3 id="newsletter-figures-title" className="font-display text-lg uppercase">
        Newsletters
      </h3>
      <p className="mt-1 text-sm text-slate">
        No open rate, on purpose: it would need a tracking pixel, and Apple Mail Privacy Protection fetches every image of every email, so opens mean
        little. Clicks are the honest figure.
      </p>
      <FigureTable
        caption="Newsletters sent in this range"
        rows={newsletters}
        rowKey={(row) => String(row.id)}
        emptyText="No newsletter sent in this range."
        columns={[
          { label: "Newsletter", cell: (row) => row.subject },
          { label: "Sent", cell: (row) => row.sentAt.slice(0, 10) },
          { label: "Delivered", cell: (row) => figure(row.delivered), numeric: true },
          { label: "Unique clicks", cell: (row) => figure(row.uniqueClicks), numeric: true },
          { label: "Clicks", cell: (row) => figure(row.clicks), numeric: true },
          { label: "Unsubscribes", cell: (row) => figure(row.unsubscribes), numeric: true },
        ]}
      />
      {newsletters
        .filter((row) => row.links.length > 0)
        .map((row) => (
          <FigureTable
            key={row.id}
            caption={`Clicks per link: ${row.subject}`}
            rows={row.links}
            rowKey={(link, index) => `${String(index)} ${link.url}`}
            emptyText=""
            columns={[
              { label: "Link", cell: (link) => link.url },
              { label: "Clicks", cell: (link) => figure(link.clicks), numeric: true },
              { label: "Unique clicks", cell: (link) => figure(link.uniqueClicks), numeric: true },
            ]}
          />
        ))}
    </section>
  );
}
