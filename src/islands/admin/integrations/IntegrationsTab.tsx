import { ApiKeysSection } from "./ApiKeysSection.tsx";
import WebhooksSection from "./WebhooksSection.tsx";

/** Integrations: what connects the site to other tools, one section each. */
export default function IntegrationsTab() {
  return (
    <div className="space-y-8">
      <ApiKeysSection />
      <WebhooksSection />
    </div>
  );
}
