/**
 * Starts the dashboard (the `client:only` island of the admin page): rendered in the browser
 * only, from an external module script because the site's CSP allows no inline script.
 */
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import AdminApp from "./AdminApp.tsx";

const root = document.getElementById("admin-root");
if (root) createRoot(root).render(createElement(AdminApp));
