import type { PaymentsClient } from "./payments/client.js";
import { NotConnectedError } from "./payments/errors.js";
import type { Invoice } from "./payments/model.js";
import type { CredentialsStore } from "./store/credentials.js";

/** The payment service as one workspace sees it: its own stored credentials, then the client. */
export class WorkspacePayments {
  constructor(
    private readonly credentials: CredentialsStore,
    private readonly client: PaymentsClient,
  ) {}

  async invoice(teamId: string, invoiceId: string): Promise<Invoice> {
    const connection = await this.credentials.get(teamId);
    if (!connection) throw new NotConnectedError(teamId);
    return this.client.getInvoice(connection.account, invoiceId);
  }
}
