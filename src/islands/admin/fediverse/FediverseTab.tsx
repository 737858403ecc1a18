import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type SubmitEvent } from "react";
import { fediverseRoutes } from "../../../api/routes/fediverse.routes.ts";
import {
  blockInputSchema,
  deliveryStatuses,
  type Block,
  type Delivery,
  type DeliveryStatus,
  type Follower,
} from "../../../core/fediverse/fediverse.schema.ts";
import { callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { Icon } from "../ui/icons.tsx";
import { ListState } from "../ui/ListState.tsx";

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium" });
const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The delivery states as the filter names them. */
const statusLabels: Record<DeliveryStatus, string> = { waiting: "Waiting", delivered: "Delivered", failed: "Failed", "given-up": "Given up" };

/**
 * The Fediverse section (issue 45 point 2): who follows the site from the social web, the servers
 * it blocks, and where its posts went (docs/fediverse.md).
 */
export default function FediverseTab() {
  return (
    <div className="space-y-6">
      <FollowersSection />
      <BlocksSection />
      <DeliveriesSection />
    </div>
  );
}

function FollowersSection() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const followers = useQuery(queries.fediverse.followers(page));
  const data = followers.data;
  const remove = useMutation({
    mutationFn: (follower: Follower) => callApi(fediverseRoutes.removeFollower, { params: { id: follower.id } }),
    onSuccess: async (_, follower) => {
      showToast({ title: "Follower Removed", description: `${follower.handle} no longer receives your posts (they may follow again).` });
      await queryClient.invalidateQueries({ queryKey: queries.fediverse.followersKey });
    },
    onError: (failure) => showErrorToast(failure.message),
  });
  return (
    <section aria-labelledby="fediverse-followers-title" className="card p-5">
      <h2 id="fediverse-followers-title" className="section-title text-2xl">
        Followers
      </h2>
      <p className="mt-2 text-sm">
        People who follow the site from Mastodon, Threads and other fediverse apps. Each new post is delivered to their servers whole.
      </p>
      {data && (
        <p className="mt-3 font-display text-3xl" data-testid="fediverse-follower-count">
          {count(data.total, "follower", "followers")}
        </p>
      )}
      <ListState loading={followers.isPending} error={followers.error} empty={data?.total === 0} emptyText="No followers yet." />
      {data && data.followers.length > 0 && (
        <ul className="mt-4 space-y-2" aria-label="Followers">
          {data.followers.map((follower) => (
            <li key={follower.id} className="flex items-start justify-between gap-3 border-2 border-ink bg-white p-3" aria-label={follower.handle}>
              <div className="min-w-0">
                <p className="break-words font-bold">{follower.name}</p>
                <p className="break-all text-sm">
                  <a href={follower.url} target="_blank" rel="noopener noreferrer" className="underline">
                    @{follower.handle}
                  </a>
                </p>
                <p className="text-sm text-slate">
                  {follower.server} · since {day(follower.since)}
                </p>
              </div>
              <ConfirmButton
                label={`Remove ${follower.handle}`}
                title="Remove this follower?"
                description={`${follower.handle} stops receiving your posts. They are not told, and may follow again; to keep a whole server out, block it below.`}
                confirmLabel="Remove Follower"
                onConfirm={() => remove.mutate(follower)}
                disabled={remove.isPending}
              >
                <Icon name="trash" />
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      {data && data.pages > 1 && (
        <nav aria-label="Follower pages" className="mt-4 flex flex-wrap items-center gap-3 text-sm">
          <button type="button" className="btn btn-light py-1 text-sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <span>
            Page {data.page} of {data.pages}
          </span>
          <button type="button" className="btn btn-light py-1 text-sm" disabled={page >= data.pages} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </nav>
      )}
    </section>
  );
}

function BlocksSection() {
  const queryClient = useQueryClient();
  const blocks = useQuery(queries.fediverse.blocks);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const problemId = useId();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: queries.fediverse.blocks.queryKey });
    // A block removes that server's followers.
    await queryClient.invalidateQueries({ queryKey: queries.fediverse.followersKey });
  };
  const block = useMutation({
    mutationFn: ({ domain }: { domain: string; form: HTMLFormElement }) => callApi(fediverseRoutes.block, { body: { domain } }),
    onSuccess: async (blocked, { form }) => {
      form.reset();
      showToast({ title: "Server Blocked", description: `${blocked.domain}: its followers are removed and its requests refused.` });
      await refresh();
    },
    onError: (failure) => showErrorToast(failure.message, "Server Not Blocked"),
  });
  const unblock = useMutation({
    mutationFn: (blocked: Block) => callApi(fediverseRoutes.unblock, { params: { domain: blocked.domain } }),
    onSuccess: async (_, blocked) => {
      showToast({ title: "Server Unblocked", description: `${blocked.domain} may follow the site again.` });
      await refresh();
    },
    onError: (failure) => showErrorToast(failure.message),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    // One schema checks the form here and the request on the server.
    const parsed = blockInputSchema.safeParse({ domain: new FormData(form).get("domain") ?? "" });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? "Please enter a server's host name, such as mastodon.social.");
      return;
    }
    setProblem(null);
    block.mutate({ domain: parsed.data.domain, form });
  };
  return (
    <section aria-labelledby="fediverse-blocks-title" className="card p-5">
      <h2 id="fediverse-blocks-title" className="section-title text-2xl">
        Blocked Servers
      </h2>
      <p className="mt-2 text-sm">A blocked server loses its followers here, its requests to the site are refused, and nothing is sent to it.</p>
      <form onSubmit={submit} noValidate className="mt-4 flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-56">
          <label htmlFor={inputId} className="block text-sm font-bold uppercase tracking-wide">
            Server to block
          </label>
          <input
            id={inputId}
            name="domain"
            type="text"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="spam.example"
            className="admin-input"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? problemId : undefined}
          />
        </div>
        <button type="submit" className="btn py-2 text-sm" disabled={block.isPending}>
          Block Server
        </button>
      </form>
      {problem && (
        <p id={problemId} role="alert" className="mt-2 text-sm font-semibold text-signal-dark">
          {problem}
        </p>
      )}
      <ListState loading={blocks.isPending} error={blocks.error} empty={blocks.data?.blocks.length === 0} emptyText="No server is blocked." />
      {blocks.data && blocks.data.blocks.length > 0 && (
        <ul className="mt-4 space-y-2" aria-label="Blocked servers">
          {blocks.data.blocks.map((blocked) => (
            <li key={blocked.domain} className="flex flex-wrap items-center justify-between gap-3 border-2 border-ink bg-white p-3">
              <span className="min-w-0 break-all">
                <strong>{blocked.domain}</strong> <span className="text-sm text-slate">· since {day(blocked.createdAt)}</span>
              </span>
              <button
                type="button"
                className="btn btn-light py-1 text-sm"
                aria-label={`Unblock ${blocked.domain}`}
                disabled={unblock.isPending}
                onClick={() => unblock.mutate(blocked)}
              >
                Unblock
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function DeliveriesSection() {
  const [status, setStatus] = useState<DeliveryStatus | undefined>(undefined);
  const deliveries = useQuery(queries.fediverse.deliveries(status));
  const data = deliveries.data;
  const filterName = useId();
  return (
    <section aria-labelledby="fediverse-deliveries-title" className="card p-5">
      <h2 id="fediverse-deliveries-title" className="section-title text-2xl">
        Deliveries
      </h2>
      <p className="mt-2 text-sm">
        Each post (and each change to it) goes once to every follower&apos;s server, signed; a server that doesn&apos;t answer is tried again with
        longer waits, and given up on when it has failed for too long.
      </p>
      <fieldset className="mt-3 flex flex-wrap items-center gap-2">
        <legend className="sr-only">Show deliveries</legend>
        {[undefined, ...deliveryStatuses].map((value) => (
          <label key={value ?? "all"} className={`admin-filter ${status === value ? "admin-filter-on" : ""}`}>
            <input type="radio" name={filterName} checked={status === value} onChange={() => setStatus(value)} className="sr-only" />
            {value ? statusLabels[value] : "All"}
          </label>
        ))}
      </fieldset>
      <ListState loading={deliveries.isPending} error={deliveries.error} empty={data?.deliveries.length === 0} emptyText="No deliveries here." />
      {data && data.deliveries.length > 0 && (
        <ol className="mt-3 space-y-2" aria-label="Deliveries">
          {data.deliveries.map((delivery) => (
            <DeliveryItem key={delivery.id} delivery={delivery} />
          ))}
        </ol>
      )}
      {data && (
        <div className="mt-6 border-t-3 border-ink pt-4">
          <h3 className="font-bold uppercase tracking-wide">Servers given up on</h3>
          {data.deadServers.length === 0 ? (
            <p className="mt-1 text-sm text-slate">None: every server is answering.</p>
          ) : (
            <ul className="mt-2 space-y-1 text-sm" aria-label="Servers given up on">
              {data.deadServers.map((dead) => (
                <li key={dead.server}>
                  <strong className="break-all">{dead.server}</strong> · failing since {when(dead.since)}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

function DeliveryItem({ delivery }: { delivery: Delivery }) {
  return (
    <li
      className="border-2 border-ink bg-white p-2 text-sm"
      aria-label={`${delivery.activity} to ${delivery.server}: ${statusLabels[delivery.status]}`}
    >
      <p>
        <code>{delivery.activity}</code>
        {delivery.postTitle && <> · {delivery.postTitle}</>} · <span className="break-all">{delivery.server}</span> ·{" "}
        <strong>{statusLabels[delivery.status]}</strong>
      </p>
      <p className="mt-1 text-slate">
        {count(delivery.attempts, "attempt", "attempts")} · {when(delivery.updatedAt)}
        {delivery.nextAttemptAt && ` · next try ${when(delivery.nextAttemptAt)}`}
      </p>
      {delivery.lastError && <p className="mt-1 break-all text-slate">{delivery.lastError}</p>}
    </li>
  );
}
