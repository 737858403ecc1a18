import type { CSSProperties } from "react";

/**
 * The brand (BRAND.md) as inline styles, the only styling every mail client honours. Email clients
 * load no web fonts, so each family falls back to faces installed nearly everywhere: Arial Black
 * keeps headings heavy where Archivo Black is missing.
 */
export const colors = {
  ink: "#0A0A0A",
  paper: "#FAFAF7",
  signal: "#E11D2E",
  // Slate on paper is 4.6:1; paper on signal red is 4.55:1 (WCAG AA).
  slate: "#6B7280",
} as const;

export const fonts = {
  display: "'Archivo Black', 'Arial Black', 'Helvetica Neue', Impact, Arial, sans-serif",
  body: "Inter, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
} as const;

const heavy: CSSProperties = {
  fontFamily: fonts.display,
  fontWeight: 900,
  textTransform: "uppercase",
  letterSpacing: "0.02em",
};

export const styles = {
  body: { margin: 0, padding: "24px 0", backgroundColor: colors.paper, color: colors.ink, fontFamily: fonts.body },
  container: {
    maxWidth: "600px",
    margin: "0 auto",
    backgroundColor: colors.paper,
    border: `3px solid ${colors.ink}`,
    boxShadow: `6px 6px 0 ${colors.ink}`,
  },
  masthead: { backgroundColor: colors.ink, padding: "20px 28px" },
  mark: {
    ...heavy,
    display: "inline-block",
    width: "40px",
    lineHeight: "40px",
    textAlign: "center",
    fontSize: "18px",
    backgroundColor: colors.signal,
    color: colors.paper,
    border: `2px solid ${colors.paper}`,
    marginRight: "12px",
    verticalAlign: "middle",
  },
  wordmark: { ...heavy, display: "inline-block", fontSize: "24px", lineHeight: "40px", color: colors.paper, verticalAlign: "middle" },
  tagline: { margin: "8px 0 0", fontSize: "13px", lineHeight: "18px", color: colors.paper, letterSpacing: "0.04em" },
  content: { padding: "28px 28px 8px" },
  heading: { ...heavy, margin: "0 0 16px", fontSize: "28px", lineHeight: "32px", color: colors.ink },
  subheading: { ...heavy, margin: "24px 0 12px", fontSize: "20px", lineHeight: "26px", color: colors.ink },
  paragraph: { margin: "0 0 16px", fontSize: "17px", lineHeight: "28px", color: colors.ink },
  buttonBlock: { margin: "8px 0 24px" },
  button: {
    ...heavy,
    display: "inline-block",
    padding: "14px 22px",
    fontSize: "16px",
    lineHeight: "20px",
    backgroundColor: colors.signal,
    color: colors.paper,
    border: `3px solid ${colors.ink}`,
    boxShadow: `4px 4px 0 ${colors.ink}`,
    textDecoration: "none",
  },
  link: { color: colors.ink, fontWeight: 700, textDecoration: "underline" },
  divider: { margin: "8px 0 0", border: "none", borderTop: `3px solid ${colors.ink}` },
  footer: { padding: "20px 28px 24px", borderTop: `3px solid ${colors.ink}` },
  footerText: { margin: "0 0 10px", fontSize: "13px", lineHeight: "20px", color: colors.slate },
  footerLink: { color: colors.slate, textDecoration: "underline" },
} satisfies Record<string, CSSProperties>;
