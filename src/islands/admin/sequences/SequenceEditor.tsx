import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type SubmitEvent } from "react";
import { sequencesRoutes } from "../../../api/routes/sequences.routes.ts";
import { sequenceUpdateSchema, type Sequence } from "../../../core/sequences/sequence.schema.ts";
import { callApi } from "../api-client.ts";
import RichEditor from "../editor/RichEditor.tsx";
import { showErrorToast, showToast } from "../toasts.ts";
import { delayParts, minutesPer, type DelayUnit } from "./delay.ts";
import { TestSendForm } from "../ui/TestSendForm.tsx";

/** A test is made from the step as saved: a new or edited step has to be saved first (the Preview shows unsaved words). */
function testUnavailable(sequence: Sequence, step: DraftStep): string | undefined {
  const saved = step.id === undefined ? undefined : sequence.steps.find((other) => other.id === step.id);
  if (!saved) return "Save the sequence to send a test of this step.";
  if (saved.subject !== step.subject || saved.html !== step.html) return "Save your changes to send a test of them.";
  return undefined;
}

/** A step as the form holds it: `local` tells React's rows apart before a new step has an id. */
interface DraftStep {
  local: number;
  id?: number;
  subject: string;
  html: string;
  amount: string;
  unit: DelayUnit;
}

let nextLocal = 0;
const draftOf = (step: Sequence["steps"][number]): DraftStep => {
  const { amount, unit } = delayParts(step.delayMinutes);
  return { local: (nextLocal += 1), id: step.id, subject: step.subject, html: step.html, amount: String(amount), unit };
};

/** One sequence's form: on/off, its steps (subject, the post editor's body, delay and unit) and each step's figures. */
export function SequenceEditor({ sequence }: { sequence: Sequence }) {
  const queryClient = useQueryClient();
  const formId = `sequence-${sequence.key}`;
  const [enabled, setEnabled] = useState(sequence.enabled);
  const [segment, setSegment] = useState(sequence.segment ?? "");
  const [steps, setSteps] = useState<DraftStep[]>(() => sequence.steps.map(draftOf));
  const [error, setError] = useState<string | null>(null);
  const stats = useQuery({
    queryKey: [sequencesRoutes.stats.path, sequence.key],
    queryFn: () => callApi(sequencesRoutes.stats, { params: { key: sequence.key } }),
  });
  const figures = new Map((stats.data ?? []).map((row) => [row.stepId, row]));

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof sequenceUpdateSchema.parse>) => callApi(sequencesRoutes.update, { params: { key: sequence.key }, body }),
    onSuccess: async (saved) => {
      setSteps(saved.steps.map(draftOf));
      setEnabled(saved.enabled);
      setSegment(saved.segment ?? "");
      showToast({ title: "Sequence Saved", description: `${saved.name}: ${String(saved.steps.length)} steps, ${saved.enabled ? "on" : "off"}.` });
      await queryClient.invalidateQueries({ queryKey: [sequencesRoutes.list.path] });
      await queryClient.invalidateQueries({ queryKey: [sequencesRoutes.stats.path, sequence.key] });
    },
    onError: (failure) => {
      setError(failure.message);
      showErrorToast(failure.message, "Save Failed");
    },
  });

  const change = (local: number, patch: Partial<DraftStep>) =>
    setSteps((current) => current.map((step) => (step.local === local ? { ...step, ...patch } : step)));

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = {
      enabled,
      segment,
      steps: steps.map((step) => ({
        ...(step.id !== undefined && { id: step.id }),
        subject: step.subject,
        html: step.html,
        delayMinutes: step.amount.trim() === "" ? NaN : Number(step.amount) * minutesPer[step.unit],
      })),
    };
    const checked = sequenceUpdateSchema.safeParse(body);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? "Please check the steps.");
      return;
    }
    setError(null);
    save.mutate(checked.data);
  };

  return (
    <section aria-labelledby={`${formId}-title`} className="card p-5">
      <h3 id={`${formId}-title`} className="section-title text-xl">
        {sequence.name}
      </h3>
      <form id={formId} className="mt-3 space-y-4" onSubmit={submit} noValidate>
        <label className="flex items-center gap-2 text-sm font-semibold">
          <input type="checkbox" name="enabled" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
          Send this sequence
        </label>
        <label className="block text-sm font-semibold">
          Only for a segment (optional)
          <input
            name="segment"
            className="admin-input mt-1 font-mono sm:max-w-md"
            placeholder="tag signup:home AND NOT tag customer"
            value={segment}
            onChange={(event) => setSegment(event.target.value)}
          />
          <span className="mt-1 block font-normal text-slate">
            Empty: everyone it starts for. Otherwise people outside the segment get none of its steps (checked before each step).
          </span>
        </label>
        {steps.length === 0 && <p className="text-sm">No steps yet: add the first one.</p>}
        <ol className="space-y-4">
          {steps.map((step, index) => {
            const id = `${formId}-step-${String(step.local)}`;
            const shown = step.id === undefined ? undefined : figures.get(step.id);
            return (
              <li key={step.local}>
                <fieldset className="space-y-3 border-3 border-ink/30 p-3">
                  <legend className="px-1 font-bold">Step {index + 1}</legend>
                  <div>
                    <label htmlFor={`${id}-subject`} className="block text-sm font-bold uppercase tracking-wide">
                      Subject
                    </label>
                    <input
                      id={`${id}-subject`}
                      className="admin-input mt-1"
                      value={step.subject}
                      maxLength={200}
                      onChange={(event) => change(step.local, { subject: event.target.value })}
                    />
                  </div>
                  <div>
                    <span className="block text-sm font-bold uppercase tracking-wide">Body</span>
                    <div className="mt-1">
                      <RichEditor
                        id={`${id}-body`}
                        label={`Step ${String(index + 1)} body`}
                        value={step.html}
                        onChange={(html) => change(step.local, { html })}
                        invalid={false}
                        describedBy={undefined}
                      />
                    </div>
                  </div>
                  <div className="flex flex-wrap items-end gap-2">
                    <div>
                      <label htmlFor={`${id}-delay`} className="block text-sm font-bold uppercase tracking-wide">
                        {index === 0 ? "Delay after joining" : "Delay after the previous step"}
                      </label>
                      <input
                        id={`${id}-delay`}
                        className="admin-input mt-1 w-28"
                        type="number"
                        min={0}
                        step={1}
                        inputMode="numeric"
                        value={step.amount}
                        onChange={(event) => change(step.local, { amount: event.target.value })}
                      />
                    </div>
                    <div>
                      <label htmlFor={`${id}-unit`} className="block text-sm font-bold uppercase tracking-wide">
                        Unit
                      </label>
                      <select
                        id={`${id}-unit`}
                        className="admin-input mt-1"
                        value={step.unit}
                        onChange={(event) => change(step.local, { unit: event.target.value as DelayUnit })}
                      >
                        <option value="minutes">minutes</option>
                        <option value="hours">hours</option>
                        <option value="days">days</option>
                      </select>
                    </div>
                    <button
                      type="button"
                      className="btn btn-light py-2 text-sm"
                      onClick={() => setSteps((current) => current.filter((other) => other.local !== step.local))}
                    >
                      Remove step {index + 1}
                    </button>
                  </div>
                  <StepPreview sequenceKey={sequence.key} subject={step.subject} html={step.html} label={`Step ${String(index + 1)}`} />
                  <TestSendForm
                    title={`Send a test of step ${String(index + 1)}`}
                    send={(address) =>
                      callApi(sequencesRoutes.testStep, { params: { key: sequence.key, stepId: step.id ?? 0 }, body: { email: address } })
                    }
                    unavailable={testUnavailable(sequence, step)}
                  />
                  <p className="text-sm" data-testid="step-figures">
                    {shown
                      ? `Sent: ${String(shown.sent)} · Unsubscribed after it: ${String(shown.unsubscribed)} · Clicks: ${String(shown.clicks)} (${String(shown.uniqueClicks)} people)`
                      : "Not sent yet"}
                  </p>
                </fieldset>
              </li>
            );
          })}
        </ol>
        {error && (
          <p role="alert" className="text-sm font-semibold text-signal-dark">
            {error}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-light py-2 text-sm"
            onClick={() => setSteps((current) => [...current, { local: (nextLocal += 1), subject: "", html: "", amount: "1", unit: "days" }])}
          >
            Add step
          </button>
          <button type="submit" className="btn py-2 text-sm" disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save sequence"}
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * A step's email as it would be mailed, from the words in the editor now (saved or not): shown in
 * a sandboxed frame, as the newsletter's preview is (issue 41 point 6).
 */
function StepPreview({ sequenceKey, subject, html, label }: { sequenceKey: string; subject: string; html: string; label: string }) {
  const preview = useMutation({
    mutationFn: () => callApi(sequencesRoutes.preview, { params: { key: sequenceKey }, body: { subject, html } }),
  });
  return (
    <div>
      <button type="button" className="btn btn-light py-2 text-sm" onClick={() => preview.mutate()} disabled={preview.isPending}>
        {preview.isPending ? "Rendering…" : `Preview ${label}`}
      </button>
      {preview.error && (
        <p role="alert" className="mt-2 text-sm font-semibold text-signal-dark">
          {preview.error.message}
        </p>
      )}
      {preview.data && (
        <div className="mt-2">
          <p className="text-sm font-semibold">Subject: {preview.data.subject}</p>
          {/* sandbox="": the email's HTML runs no script and reaches nothing of the dashboard. */}
          <iframe
            title={`${label} email preview`}
            sandbox=""
            srcDoc={preview.data.html}
            className="mt-2 h-[28rem] w-full border-3 border-ink bg-white"
          />
        </div>
      )}
    </div>
  );
}
