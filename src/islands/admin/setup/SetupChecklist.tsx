import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
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
  /** Opens the Security tab (passkeys, the password). */
  openSecurity: () => void;
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
  if (item.fixAt === "#security") {
    return (
      <button type="button" className="btn btn-light py-2 text-sm" onClick={navigation.openSecurity}>
        Fix in Security
      </button>
    );
  }
  return <span className="text-sm text-slate">See {item.fixAt} in the project.</span>;
}

/** Where the owner's "Hide the list" is remembered, in this browser. */
const collapsedKey = "nf-setup-collapsed";

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(collapsedKey) === "1";
  } catch {
    return false;
  }
}

/**
 * The dashboard's first screen until the site is the owner's: each value still from the demo or
 * at a default, what it is, and where it is fixed. It folds down to its heading on request (and
 * stays folded in this browser), and is gone once every item is done.
 */
export default function SetupChecklist({ navigation }: { navigation: SetupNavigation }) {
  const checklist = useQuery(queries.setup);
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const list = checklist.data;
  if (!list || list.done === list.total) return null;
  const toggle = () => {
    const next = !collapsed;
    setCollapsed(next);
    try {
      localStorage.setItem(collapsedKey, next ? "1" : "0");
    } catch {
      // Storage off: folded for this visit only.
    }
  };
  return (
    <section aria-labelledby="setup-title" className="card mb-6 p-4 sm:p-5">
      <div className="flex flex-col items-start gap-2 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="setup-title" className="section-title text-xl sm:text-2xl">
          Finish setting up: {list.done} of {list.total} done
        </h2>
        <button type="button" className="btn btn-light py-1 text-sm" aria-expanded={!collapsed} aria-controls="setup-items" onClick={toggle}>
          {collapsed ? "Show the list" : "Hide the list"}
        </button>
      </div>
      <div id="setup-items" hidden={collapsed}>
        <p className="mt-1 text-sm text-slate">Until these are done, your site and its emails still show demo or example values.</p>
        <ul className="mt-4 space-y-3" aria-label="Setup checklist">
          {list.items.map((item) => (
            // On a phone the button goes under the text, not squeezed beside it.
            <li key={item.key} className="flex flex-col items-start gap-3 border-t-2 border-ink pt-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0 sm:flex-1">
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
      </div>
    </section>
  );
}
