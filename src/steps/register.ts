import type { Stores } from "../store/index.js";
import { MAIN_REGISTER, registerKey } from "../store/registers.js";

/** A register of the workspace, by name and the key its state is kept under. */
export type StepRegister = { name: string; key: string };

/**
 * The register a step's optional `register` input names (main when empty); undefined when the
 * workspace has no such register, so the run fails saying so rather than use another.
 */
export async function stepRegister(
  stores: Pick<Stores, "registers">,
  team: string,
  given: string | undefined,
): Promise<StepRegister | undefined> {
  const name = (given ?? MAIN_REGISTER).trim().toLowerCase();
  if (name === MAIN_REGISTER) return { name, key: team };
  const others = await stores.registers.others(team);
  return others.includes(name) ? { name, key: registerKey(team, name) } : undefined;
}

/** Every register of the workspace, main first: where an invoice named by id alone is looked for. */
export async function stepRegisters(
  stores: Pick<Stores, "registers">,
  team: string,
): Promise<StepRegister[]> {
  const others = await stores.registers.others(team);
  return [MAIN_REGISTER, ...others].map((name) => ({ name, key: registerKey(team, name) }));
}
