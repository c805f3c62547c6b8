// Whether a run can start on a device now (decisions.md §10: "runs are on and a host can take
// the run", else 503 `runs_unavailable`): the sandbox the run needs (RUN_SANDBOX=required),
// then the device host's `capacityFor`. The runs module makes it from what it is handed.

export interface RunCapacity {
  /** Null when a host can take the device now (it is already placed, or a slot is free); else why not. */
  refusal(deviceId: number): Promise<string | null>;
}
