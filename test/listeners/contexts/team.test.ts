import { describe, expect, it } from "vitest";
import { teamIdOf } from "../../../src/listeners/contexts/team.js";

describe("teamIdOf", () => {
  it("takes the body's team, then the user's workspace, then nothing", () => {
    expect(teamIdOf({ team: { id: "T1" }, user: { team_id: "T2" } })).toBe("T1");
    expect(teamIdOf({ team: null, user: { team_id: "T2" } })).toBe("T2");
    expect(teamIdOf({ user: {} })).toBe("");
  });
});
