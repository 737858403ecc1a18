import * as Tabs from "@radix-ui/react-tabs";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { authRoutes } from "../../api/routes/auth.routes.ts";
import { callApi } from "./api-client.ts";
import DownloadsTab from "./downloads/DownloadsTab.tsx";
import IntegrationsTab from "./integrations/IntegrationsTab.tsx";
import MovingTab from "./moving/MovingTab.tsx";
import PostsTab from "./posts/PostsTab.tsx";
import SecurityTab from "./security/SecurityTab.tsx";
import SequencesTab from "./sequences/SequencesTab.tsx";
import SettingsTab from "./settings/SettingsTab.tsx";
import SetupChecklist from "./setup/SetupChecklist.tsx";
import SiteBuildStatus from "./SiteBuildStatus.tsx";
import SubscribersTab from "./subscribers/SubscribersTab.tsx";
import StatsTab from "./stats/StatsTab.tsx";
import { showErrorToast, showToast, toastTexts } from "./toasts.ts";

const tabs = [
  { value: "posts", label: "Blog Posts", Panel: PostsTab },
  { value: "downloads", label: "Downloads", Panel: DownloadsTab },
  { value: "subscribers", label: "Email Subscribers", Panel: SubscribersTab },
  { value: "sequences", label: "Sequences", Panel: SequencesTab },
  { value: "settings", label: "Site Settings", Panel: SettingsTab },
  { value: "security", label: "Security", Panel: SecurityTab },
  { value: "moving", label: "Import & Backup", Panel: MovingTab },
  { value: "stats", label: "Stats", Panel: StatsTab },
  { value: "integrations", label: "Integrations", Panel: IntegrationsTab },
] as const;

/** The logged-in dashboard: header with View Site and Logout, and the tabs. */
export default function Dashboard({ onLoggedOut }: { onLoggedOut: () => void }) {
  // A tab loads its list when first opened, then stays mounted (hidden) so a half-written post or
  // resource survives a look at another tab.
  const [current, setCurrent] = useState<string>(tabs[0].value);
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set([tabs[0].value]));
  const open = (value: string) => {
    setCurrent(value);
    setOpened((before) => new Set(before).add(value));
  };
  // The checklist's "Fix" opens Site Settings at the field, once its row has rendered.
  const openSetting = (key: string) => {
    open("settings");
    let tries = 0;
    const focus = () => {
      const field = document.getElementById(`setting-${key}`);
      if (field) field.focus();
      else if (tries++ < 100) requestAnimationFrame(focus);
    };
    requestAnimationFrame(focus);
  };
  // A link to `#stats…` (a post's figures, from Recent Posts) opens the Stats tab; `#integrations`
  // (the owner's email about a switched-off webhook endpoint) the Integrations tab.
  useEffect(() => {
    const follow = () => {
      if (location.hash.startsWith("#stats")) open("stats");
      if (location.hash.startsWith("#integrations")) open("integrations");
    };
    follow();
    addEventListener("hashchange", follow);
    return () => removeEventListener("hashchange", follow);
  }, []);
  // Logout ends the session on the server first, so the old cookie is worthless even if copied.
  const logout = useMutation({
    mutationFn: () => callApi(authRoutes.logout),
    meta: { endsSession: true },
    onSuccess: () => {
      showToast(toastTexts.loggedOut);
      onLoggedOut();
    },
    onError: () => showErrorToast("Logout failed. Please try again."),
  });

  return (
    <div className="min-h-screen">
      <header className="border-b-3 border-ink bg-ink text-paper">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <h1 className="font-display text-xl uppercase">
            No Filter <span className="ml-1 bg-signal-dark px-2 text-paper">Admin</span>
          </h1>
          <SiteBuildStatus />
          <nav aria-label="Dashboard" className="flex gap-3">
            <a href="/" target="_blank" rel="noopener" className="btn btn-light py-2 text-sm">
              View Site
            </a>
            <button type="button" className="btn py-2 text-sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
              Logout
            </button>
          </nav>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">
        <SetupChecklist navigation={{ openSetting, openSecurity: () => open("security") }} />
        <Tabs.Root value={current} onValueChange={open}>
          <Tabs.List aria-label="Dashboard sections" className="flex flex-wrap gap-2 border-b-3 border-ink pb-3">
            {tabs.map((tab) => (
              <Tabs.Trigger key={tab.value} value={tab.value} className="admin-tab">
                {tab.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {tabs.map(({ value, Panel }) => (
            <Tabs.Content key={value} value={value} forceMount className="pt-6 focus-visible:outline-3 data-[state=inactive]:hidden">
              {opened.has(value) && <Panel />}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </main>
    </div>
  );
}
