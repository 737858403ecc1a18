import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { setupRoutes } from "../../../api/routes/setup.routes.ts";
import type { SetupItem } from "../../../core/setup/setup-checklist.schema.ts";
import { callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";

/** Where an item is fixed, for the dashboard to take the owner there. */
export interface SetupNavigation {
  /** Opens Site Settings with this setting's field focused. */
  openSetting: (key: string) => void;
}

function FixIt({ item, navigation }: { item: SetupItem; navigation: SetupNavigation }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => callApi(setupRoutes.removeDemoContent),
    onSuccess: async (removed) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queries.posts.queryKey }),
        queryClient.invalidateQueries({ queryKey: queries.downloads.queryKey }),
        queryClient.invalidateQueries({ queryKey: queries.siteBuild.queryKey }),
      ]);
      showToast({
        title: "Demo Content Removed",
        description: `${String(removed.posts)} demo posts and ${String(removed.resources)} demo resources are gone; the site is rebuilding.`,
      });
    },
    onError: () => showErrorToast("Failed to remove the demo content."),
  });
  if (item.done) return null;
  if (item.key === "demo-content") {
    return (
      <ConfirmButton
        label="Remove demo content"
        title="Remove the demo content?"
        description="Every demo post and resource is deleted, with its images and files. Posts and resources you wrote stay. This cannot be undone."
        confirmLabel="Remove Demo Content"
        onConfirm={() => remove.mutate()}
        disabled={remove.isPending}
        triggerClassName="btn py-2 text-sm"
      >
        {remove.isPending ? "Removing…" : "Remove demo content"}
      </ConfirmButton>
    );
  }
  const setting = /^#settings\/(\w+)$/.exec(item.fixAt)?.[1];
  if (setting) {
    return (
      <button type="button" className="btn btn-light py-2 text-sm" onClick={() => navigation.openSetting(setting)}>
        Fix in Site Settings
      </button>
    );
  }
  return <span className="text-sm text-slate">See {item.fixAt} in the project.</span>;
}

/**
 * The dashboard's first screen until the site is the owner's: each value still from the demo or
 * at a default, what it is, and where it is fixed. Gone once every item is done.
 */
export default function SetupChecklist({ navigation }: { navigation: SetupNavigation }) {
  const checklist = useQuery(queries.setup);
  const list = checklist.data;
  if (!list || list.done === list.total) return null;
  return (
    <section aria-labelledby="setup-title" className="card mb-6 p-5">
      <h2 id="setup-title" className="section-title text-2xl">
        Finish setting up: {list.done} of {list.total} done
      </h2>
      <p className="mt-1 text-sm text-slate">Until these are done, your site and its emails still show demo or example values.</p>
      <ul className="mt-4 space-y-3" aria-label="Setup checklist">
        {list.items.map((item) => (
          <li key={item.key} className="flex flex-wrap items-center justify-between gap-3 border-t-2 border-ink pt-3">
            <div className="min-w-0 flex-1">
              <p className="font-bold">
                <span aria-hidden="true" className="mr-2">
                  {item.done ? "✓" : "○"}
                </span>
                {item.label}
                <span className="sr-only">{item.done ? " (done)" : " (to do)"}</span>
              </p>
              {item.detail && <p className="text-sm">{item.detail}</p>}
            </div>
            <FixIt item={item} navigation={navigation} />
          </li>
        ))}
      </ul>
    </section>
  );
}
