import { newRef } from "../payments/marker.js";
import type { InvoiceDraft } from "../payments/model.js";
import { createLink, type LinkAttempt, type LinkDeps } from "./create.js";
import type { LinkRecord } from "./record.js";

// Create now (issue 51): its creator asks for a new link in place of one whose answer was lost.
// The unsure record is marked as superseded first (one compare-and-set, so two clicks make one
// invoice), then a new link is made with the same fields; if the first turns up later, the pass
// tells its creator (two links work) and posts no second card.

/** What a press of Create now came to. */
export type CreateNow =
  | { kind: "gone" }
  | { kind: "not_creator"; creator: string }
  | { kind: "found"; record: LinkRecord }
  | { kind: "already" }
  | { kind: "attempted"; attempt: LinkAttempt; draft: InvoiceDraft; record: LinkRecord };

/** The draft of a record: what was asked of the service, the user's own `extra` (a new marker is added). */
export function draftOf(record: LinkRecord): InvoiceDraft {
  return {
    amount: record.amount,
    currency: record.currency,
    lifetimeMinutes: record.lifetimeMinutes,
    description: record.description,
    extra: record.extra,
    payerDetails: record.email,
    requiredMethod: record.method,
  };
}

export async function createNow(
  deps: LinkDeps,
  asked: { registerKey: string; ref: string; user: string },
): Promise<CreateNow> {
  const { registerKey, ref, user } = asked;
  const record = await deps.links.read(registerKey, ref);
  if (!record) return { kind: "gone" };
  if (record.creator !== user) return { kind: "not_creator", creator: record.creator };
  const next = newRef();
  const superseding = await deps.links.supersede(registerKey, ref, next);
  if (superseding.kind === "gone") return { kind: "gone" };
  if (superseding.kind === "found") return { kind: "found", record: superseding.record };
  if (superseding.kind === "already") return { kind: "already" };
  const draft = draftOf(record);
  const attempt = await createLink(
    deps,
    registerKey,
    draft,
    {
      team: record.team,
      register: record.register,
      customer: record.customer,
      creator: user,
      channel: record.channel,
      via: "create_now",
      supersedes: ref,
      remind: record.remind,
    },
    next,
  );
  return { kind: "attempted", attempt, draft, record };
}
