// Types for @devicefarmer/adbkit-apkreader (it ships none): only what we use.
declare module '@devicefarmer/adbkit-apkreader' {
  interface ApkActivity {
    name?: string;
    label?: string | number | boolean | null;
  }
  interface ApkManifest {
    package?: string;
    versionCode?: number;
    versionName?: string | number | null;
    application?: { label?: string | number | boolean | null; testOnly?: boolean; launcherActivities?: ApkActivity[] } | null;
  }
  interface ApkReaderInstance {
    readManifest(): Promise<ApkManifest>;
  }
  const ApkReader: { open(file: string): Promise<ApkReaderInstance> };
  export default ApkReader;
}
