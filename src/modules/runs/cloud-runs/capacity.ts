// Whether a device host can take a run's device now (decisions.md §10: "runs are on and a
// host can take the run", else 503 `runs_unavailable`). The host belongs to the devices
// module, so the start takes it as this small port, which build-modules.ts fills in from the
// device host's `capacityFor`.

export interface RunCapacity {
  /** Null when a host can take the device now (it is already placed, or a slot is free); else why not. */
  refusal(deviceId: number): Promise<string | null>;
}
