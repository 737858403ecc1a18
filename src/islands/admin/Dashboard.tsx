import * as Tabs from "@radix-ui/react-tabs";
import { useMutation, useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState, type ComponentType } from "react";
import { authRoutes } from "../../api/routes/auth.routes.ts";
import { callApi } from "./api-client.ts";
import { queries } from "./query-client.ts";
import CommentsTab, { CommentsTabBadge, commentsWaitingId } from "./comments/CommentsTab.tsx";
import DownloadsTab from "./downloads/DownloadsTab.tsx";
import FediverseTab from "./fediverse/FediverseTab.tsx";
import PaymentsPanel from "./downloads/PaymentsPanel.tsx";
import IntegrationsTab from "./integrations/IntegrationsTab.tsx";
import MovingTab from "./moving/MovingTab.tsx";
import PostsTab from "./posts/PostsTab.tsx";
import SecurityTab from "./security/SecurityTab.tsx";
import SequencesTab from "./sequences/SequencesTab.tsx";
import SettingsTab from "./settings/SettingsTab.tsx";
import SetupChecklist from "./setup/SetupChecklist.tsx";
import SiteBuildStatus from "./SiteBuildStatus.tsx";
import { ListState } from "./ui/ListState.tsx";
import SubscribersTab from "./subscribers/SubscribersTab.tsx";
import { showErrorToast, showToast, toastTexts } from "./toasts.ts";
import { adminSections, isAdminSection, sectionOfPath, sectionPath, type AdminSection } from "./sections.ts";

// The Stats chart (recharts and its d3 parts, about a third of the dashboard's code) loads when the tab
// is first opened, not with every login.
const StatsTab = lazy(() => import("./stats/StatsTab.tsx"));

/** Each section's panel (the sections' order and names: sections.ts). */
const panels: Record<AdminSection, ComponentType> = {
  posts: PostsTab,
  comments: CommentsTab,
  downloads: DownloadsTab,
  subscribers: SubscribersTab,
  fediverse: FediverseTab,
  sequences: SequencesTab,
  settings: SettingsTab,
  security: SecurityTab,
  moving: MovingTab,
  stats: StatsTab,
  revenue: PaymentsPanel,
  integrations: IntegrationsTab,
};

/** The section a hash of an older link names (`#stats…` from Recent Posts, `#integrations` from an email). */
function sectionOfHash(hash: string): AdminSection | undefined {
  if (hash.startsWith("#stats")) return "stats";
  if (hash.startsWith("#integrations")) return "integrations";
  return undefined;
}

/** The logged-in dashboard: header with View Site and Logout, and the tabs. */
export default function Dashboard({ onLoggedOut }: { onLoggedOut: () => void }) {
  // A section loads its list when first opened, then stays mounted (hidden) so a half-written post
  // or resource survives a look at another section. The address names the section: opening one
  // adds a history entry, so the back button returns to the one before.
  const [initial] = useState(() => sectionOfPath(location.pathname));
  const [current, setCurrent] = useState<AdminSection>(() => initial.section ?? sectionOfHash(location.hash) ?? adminSections[0].value);
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set([current]));
  const [menuOpen, setMenuOpen] = useState(false);
  const setupPending = useQuery(queries.setup).isPending;
  const show = (value: AdminSection) => {
    setCurrent(value);
    setOpened((before) => new Set(before).add(value));
  };
  const open = (value: string) => {
    if (!isAdminSection(value)) return;
    setMenuOpen(false);
    if (value !== sectionOfPath(location.pathname).section) history.pushState(null, "", sectionPath(initial.root, value));
    show(value);
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
  // Back and forward show the section their address names; a link to a hash of an older kind
  // (`#stats…`, `#integrations`) still opens its section.
  useEffect(() => {
    const follow = () => {
      const section = sectionOfPath(location.pathname).section ?? sectionOfHash(location.hash);
      show(section ?? adminSections[0].value);
    };
    const followHash = () => {
      const section = sectionOfHash(location.hash);
      if (section) show(section);
    };
    addEventListener("popstate", follow);
    addEventListener("hashchange", followHash);
    return () => {
      removeEventListener("popstate", follow);
      removeEventListener("hashchange", followHash);
    };
  }, []);
  const currentLabel = adminSections.find((section) => section.value === current)?.label ?? "";
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
        {/* A sidebar on a laptop, a menu on a phone (issue 41 point 6): the sections no longer wrap to two rows. */}
        <Tabs.Root value={current} onValueChange={open} orientation="vertical" className="lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-8">
          <div className="mb-6 lg:mb-0">
            <button
              type="button"
              className="btn btn-light flex w-full items-center justify-between py-2 lg:hidden"
              aria-expanded={menuOpen}
              aria-controls="admin-sections"
              onClick={() => setMenuOpen((shown) => !shown)}
            >
              <span>
                <span className="sr-only">Sections: </span>
                {currentLabel}
              </span>
              <span aria-hidden="true">{menuOpen ? "✕" : "☰"}</span>
            </button>
            <Tabs.List
              id="admin-sections"
              aria-label="Dashboard sections"
              className={`${menuOpen ? "flex" : "hidden"} mt-2 flex-col gap-2 lg:sticky lg:top-4 lg:mt-0 lg:flex`}
            >
              {adminSections.map((section) => (
                <Tabs.Trigger
                  key={section.value}
                  value={section.value}
                  className="admin-tab text-left"
                  aria-describedby={section.value === "comments" ? commentsWaitingId : undefined}
                >
                  {section.label}
                  {section.value === "comments" && <CommentsTabBadge />}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
          </div>
          <div className="min-w-0">
            <SetupChecklist navigation={{ openSetting, openSecurity: () => open("security") }} />
            {/* The panels load beside the checklist but show only once it has answered: it appears above them, and
                arriving later it pushed a form down under the owner's pointer (a click meant for one checkbox landed
                beside it). One call's wait, no layout shift. */}
            <div hidden={setupPending}>
              {adminSections.map(({ value }) => {
                const Panel = panels[value];
                return (
                  <Tabs.Content key={value} value={value} forceMount className="focus-visible:outline-3 data-[state=inactive]:hidden">
                    {opened.has(value) && (
                      <Suspense fallback={<ListState loading error={null} empty={false} emptyText="" />}>
                        <Panel />
                      </Suspense>
                    )}
                  </Tabs.Content>
                );
              })}
            </div>
          </div>
        </Tabs.Root>
      </main>
    </div>
  );
}
