import { importSubscriberList } from "../subscribers/subscriber-import.ts";
import { importConsentWording } from "../subscribers/subscriber-import.schema.ts";
import type { ExportSubscribers } from "./imported-post.ts";
import type { ImportContext, ImportDeps } from "./import-posts.ts";

export const notConfirmedReason = "Kept out: you did not confirm these people agreed to receive this newsletter";

/** Why an address already here is left as it is, by its status here. */
const alreadyHereReason = (status: string): string =>
  status === "unsubscribed"
    ? "Already here, unsubscribed: never subscribed again by an import"
    : status === "pending"
      ? "Already here, waiting to confirm: left to confirm"
      : `Already here (${status})`;

/**
 * The email list an export holds (Substack's, Ghost's members), through the subscriber import and
 * its consent rule: only with the owner's confirmation, and never an address the source marks as
 * unsubscribed. A dry run reads the same way without the writes. Every address ends in one count:
 * added, already there, kept out (and why) or invalid.
 */
export async function importListedSubscribers(deps: ImportDeps, context: ImportContext, list: ExportSubscribers, consent: boolean): Promise<void> {
  const { report } = context;
  const reasons = new Map<string, number>();
  const add = (reason: string, count: number) => {
    if (count > 0) reasons.set(reason, (reasons.get(reason) ?? 0) + count);
  };
  for (const [reason, count] of list.keptOut) {
    report.subscribers.keptOut += count;
    add(`Kept out: ${reason}`, count);
  }
  const rows = list.csv.split("\n").filter((line) => line.trim() !== "").length - 1;
  if (rows > 0 && !consent) {
    report.subscribers.keptOut += rows;
    add(notConfirmedReason, rows);
    report.warnings.push({
      post: "Email list",
      message: "Subscribers are imported only when you confirm these people agreed to receive this newsletter.",
    });
  } else if (rows > 0) {
    const outcome = await importSubscriberList(deps, {
      file: new File([list.csv], "email_list.csv"),
      wording: importConsentWording,
      dryRun: context.dryRun,
    });
    report.subscribers.imported += outcome.added;
    for (const [status, count] of outcome.alreadyHere) {
      report.subscribers.alreadyThere += count;
      add(alreadyHereReason(status), count);
    }
    report.subscribers.alreadyThere += outcome.repeated;
    add("Listed more than once: counted once", outcome.repeated);
    report.subscribers.invalid += outcome.invalidCount;
    add("Not a valid address or date", outcome.invalidCount);
    for (const row of outcome.invalid.slice(0, 20)) report.warnings.push({ post: "Email list", message: `Line ${String(row.line)}: ${row.reason}` });
  }
  const { subscribers } = report;
  subscribers.skipped = subscribers.alreadyThere + subscribers.keptOut + subscribers.invalid;
  report.subscriberReasons = [...reasons].map(([reason, count]) => ({ reason, count }));
}
