import { useQuery, useQueryClient, type Query } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { sessionExpiredMessage } from "../../core/messages.ts";
import { queries, type SessionState } from "./query-client.ts";

/** Marks the element that holds the dashboard (whether shown or hidden). */
export const dashboardAttribute = "data-admin-dashboard";

/** Every list the dashboard shows: all queries but the session's own. */
const isList = (query: Query) => query.queryKey[0] !== queries.session.queryKey[0];

/**
 * Whether the owner is logged in, asked of the server (`GET /api/auth/session`) so a reload keeps
 * the session. A 401 on any admin call ends it (the query client marks the answer `expired`),
 * with a message for the login form.
 */
export function useAdminSession() {
  const queryClient = useQueryClient();
  const session = useQuery(queries.session);
  const expired = session.data?.expired === true;
  const endedMessage = expired ? sessionExpiredMessage : null;
  // A session that expired under the owner's hands keeps the dashboard (hidden, forms as they
  // were): a post written for an hour must survive logging in again.
  const keepDashboard = expired;
  // Where the owner was working when the session ended, to return there after logging in: the
  // last control focused in the dashboard, not the focus of that moment (a Save button is disabled,
  // and has lost focus, while its call runs; the login form takes focus as soon as it shows).
  const lastFocused = useRef<HTMLElement | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onFocus = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement && event.target.closest(`[${dashboardAttribute}]`)) lastFocused.current = event.target;
    };
    document.addEventListener("focusin", onFocus);
    return () => document.removeEventListener("focusin", onFocus);
  }, []);
  useEffect(() => {
    if (expired) returnFocus.current = lastFocused.current;
  }, [expired]);

  // Once the dashboard is shown again (this hook's answer is what shows it), focus goes back.
  const authenticated = session.data?.authenticated === true;
  useEffect(() => {
    const target = returnFocus.current;
    if (!authenticated || !target) return;
    returnFocus.current = null;
    if (target.isConnected) target.focus();
  }, [authenticated]);

  /** After a successful login: the lists are read again under the new session. */
  const loggedIn = () => {
    queryClient.setQueryData<SessionState>(queries.session.queryKey, { authenticated: true });
    void queryClient.invalidateQueries({ predicate: isList });
  };

  /**
   * After logout: back to the login form, everything forgotten. The session answer changes first,
   * so the gate swaps the dashboard out before any list is dropped: dropping them first left the
   * open tab to refetch its list, get a 401 and report the logout as an expired session.
   */
  const loggedOut = () => {
    queryClient.setQueryData<SessionState>(queries.session.queryKey, { authenticated: false });
    queryClient.removeQueries({ predicate: isList });
  };

  return { session, endedMessage, keepDashboard, loggedIn, loggedOut };
}
