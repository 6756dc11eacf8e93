// What invoice/create is asked and answers (client.ts sends it).

/** A new invoice as Kassa asks for it; `amount` is an exact decimal string, never a float. */
export type InvoiceDraft = {
  amount: string;
  /** The invoice's currency (converted to roubles by the service); RUB when absent. */
  currency: string;
  /** Minutes the payment page stays open (1 to 4320). */
  lifetimeMinutes: number;
  description?: string | undefined;
  /** The merchant's own reference (the service's `extra`): the user's text and Kassa's marker (marker.ts). */
  extra?: string | undefined;
  /** v3's `payer_details`: the payer's e-mail. v2 is never sent it (the form does not offer it there). */
  payerDetails?: string | undefined;
  requiredMethod?: string | undefined;
  /** Where the service posts its payment notification (the workspace's callback address). */
  callbackUrl?: string | undefined;
};

/** What the service answers to a created invoice (v2 `{id, url, amount, type}`, v3 `{id, url, type, rub_amount}`). */
export type CreatedInvoice = { id: string; url: string };
