import type { webApi } from "@slack/bolt";
import { z } from "zod";
import type { FieldErrors } from "../../blocks/form.js";
import { PAYOUT_FIELDS } from "../../blocks/payout-setup.js";
import type { Lang } from "../../i18n/lang.js";
import { PAYOUTS_TEXT } from "../../i18n/payouts.js";
import type { PolicyInput } from "../../payouts/policy.js";
import { slackErrorCode } from "../../slack/error.js";

/** Why a person cannot approve or request payouts. */
export type PersonRefusal = "bot" | "deactivated" | "guest";

const userSchema = z.object({
  name: z.string().max(100).optional(),
  is_bot: z.boolean().optional(),
  deleted: z.boolean().optional(),
  is_restricted: z.boolean().optional(),
  is_ultra_restricted: z.boolean().optional(),
});

export type PeopleChecked =
  | { ok: true }
  /** The first person who cannot, by name (a field error is plain text: no mention). */
  | { ok: false; id: string; name: string; why: PersonRefusal }
  /** Slack could not say (users.info failed): nothing is saved on a guess. */
  | { ok: false; unchecked: string };

/**
 * Whether each of `ids` is a full member of the workspace: not an app's bot, not deactivated, not a
 * guest. Approvers and requesters of payouts must be people the workspace vouches for; the people
 * picker offers all of these. Asked of Slack in parallel (a policy names a few people).
 */
export async function checkPeople(client: webApi.WebClient, ids: readonly string[]): Promise<PeopleChecked> {
  const unique = [...new Set(ids)];
  try {
    const found = await Promise.all(
      unique.map(async (id) => ({
        id,
        user: userSchema.parse((await client.users.info({ user: id })).user ?? {}),
      })),
    );
    for (const { id, user } of found) {
      const why: PersonRefusal | undefined = user.is_bot
        ? "bot"
        : user.deleted
          ? "deactivated"
          : user.is_restricted || user.is_ultra_restricted
            ? "guest"
            : undefined;
      if (why) return { ok: false, id, name: user.name ?? id, why };
    }
    return { ok: true };
  } catch (error) {
    return { ok: false, unchecked: slackErrorCode(error) };
  }
}

/** The form's approvers and requesters checked with Slack: undefined when all may, else the error by its field. */
export async function peopleError(
  client: webApi.WebClient,
  input: Pick<PolicyInput, "approvers" | "requesters">,
  lang: Lang,
): Promise<FieldErrors | undefined> {
  const checked = await checkPeople(client, [...input.approvers, ...input.requesters]);
  if (checked.ok) return undefined;
  const t = PAYOUTS_TEXT[lang];
  if ("unchecked" in checked)
    return { response_action: "errors", errors: { [PAYOUT_FIELDS.approvers]: t.peopleUnchecked } };
  const field = input.approvers.includes(checked.id) ? PAYOUT_FIELDS.approvers : PAYOUT_FIELDS.requesters;
  return { response_action: "errors", errors: { [field]: t.personRefused(checked.name, checked.why) } };
}
