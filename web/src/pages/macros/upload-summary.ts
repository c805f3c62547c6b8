// What an uploaded code snapshot holds, in words: "1 file, 120 B", "12 files, 3.4 KB".
import type { CodeUpload } from '../../api/types';
import { formatBytes, plural } from '../../lib/format';

export const uploadSummary = (upload: Pick<CodeUpload, 'file_count' | 'size_bytes'>): string => `${plural(upload.file_count, 'file')}, ${formatBytes(upload.size_bytes)}`;
