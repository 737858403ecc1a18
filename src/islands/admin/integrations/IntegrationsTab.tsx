import { ApiKeysSection } from "./ApiKeysSection.tsx";

/** The Integrations tab: what connects the site to other tools. */
export default function IntegrationsTab() {
  return (
    <div className="grid items-start gap-8 lg:grid-cols-2">
      <ApiKeysSection />
    </div>
  );
}
