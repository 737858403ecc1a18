import { previewSequenceStep } from "../../core/sequences/sequence-email.ts";
import { sendSequenceStepTest } from "../../core/sequences/sequence-test-send.ts";
import { listSequences, sequenceStats, updateSequence } from "../../core/sequences/sequences.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { sequencesRoutes } from "./sequences.routes.ts";

export const sequencesHandlers: RouteHandlers<typeof sequencesRoutes> = {
  list: ({ deps }) => listSequences(deps),
  update: ({ params, body, deps }) => updateSequence(deps, params.key, body),
  stats: ({ params, deps }) => sequenceStats(deps, params.key),
  preview: ({ params, body, deps }) => previewSequenceStep(deps, params.key, body),
  testStep: async ({ params, body, deps }) => {
    await sendSequenceStepTest(deps, { key: params.key, stepId: params.stepId, email: body.email });
    return { sent: true } as const;
  },
};
