import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import Toaster from "../public/Toaster.tsx";
import LoginForm from "./LoginForm.tsx";
import { createQueryClient } from "./query-client.ts";
import { dashboardAttribute, useAdminSession } from "./session.ts";

// The editor and the tabs are most of the code: the login form doesn't wait for them.
const Dashboard = lazy(() => import("./Dashboard.tsx"));

const loading = (
  <p className="p-8 text-center" role="status">
    Loading…
  </p>
);

/** The whole dashboard: one island, rendered only in the browser (nothing in it is public). */
export default function AdminApp() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionGate />
      <Toaster />
    </QueryClientProvider>
  );
}

function SessionGate() {
  const { session, endedMessage, keepDashboard, loggedIn, loggedOut } = useAdminSession();
  if (session.isPending) return loading;
  // If the session check itself fails (server down), the login form is the honest fallback: its
  // own call will report what is wrong.
  const authenticated = session.data?.authenticated === true;
  return (
    <>
      {(authenticated || keepDashboard) && (
        // One place in the tree whether shown or hidden, so React keeps the forms' state.
        <div hidden={!authenticated} {...{ [dashboardAttribute]: "" }}>
          <Suspense fallback={loading}>
            <Dashboard onLoggedOut={loggedOut} />
          </Suspense>
        </div>
      )}
      {!authenticated && <LoginForm message={endedMessage} onLoggedIn={loggedIn} />}
    </>
  );
}
