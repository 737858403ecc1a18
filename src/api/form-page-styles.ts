/**
 * The inline styles of the server-rendered form pages (a poll's answer, "Choose what you get", a
 * post's comments without JavaScript): each page is the site's message page with one plain form in
 * it, so the form's rules travel with the page. BRAND.md: 3px ink borders, a hard shadow, signal
 * red for the checked state and focus. `scope` is the form's class; `choices` adds the fieldset of
 * radios or boxes and the full-width button; `extra` are the page's own rules, after these.
 */
export function formPageStyles(scope: string, options: { maxWidth: string; choices?: boolean }, extra = ""): string {
  const s = `.${scope}`;
  const choices = options.choices
    ? `${s} fieldset{border:3px solid #0a0a0a;box-shadow:4px 4px 0 #0a0a0a;margin:0 0 1.5rem;padding:1rem 1.25rem;background:#fff;color:#0a0a0a}
${s} legend{font-family:"Archivo Black","Arial Black",Impact,sans-serif;text-transform:uppercase;padding:0 .5rem;background:#fafaf7;border:3px solid #0a0a0a}
${s} label{display:flex;gap:.75rem;align-items:flex-start;padding:.5rem 0;cursor:pointer}
${s} input{width:1.25rem;height:1.25rem;margin-top:.2rem;accent-color:#b91c1c;flex:none}
${s} button{width:100%}
`
    : "";
  return `<style>
${s}{width:100%;max-width:${options.maxWidth};margin:0 auto;text-align:left}
${choices}${s} .nf-note{margin:0 0 1rem;padding:.75rem 1rem;border:3px solid #0a0a0a;background:#fef3c7;color:#0a0a0a}
${s} :focus-visible{outline:3px solid #e11d2e;outline-offset:2px}
${extra}</style>`;
}
