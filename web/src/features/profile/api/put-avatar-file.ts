import { ApiError } from '@/lib/api-client.ts';

/** PUT {uploadURL}: the file itself, with its content type, sent directly to the storage URL. */
export async function putAvatarFile(uploadURL: string, file: File): Promise<void> {
  const response = await fetch(uploadURL, {
    method: 'PUT',
    body: file,
    headers: { 'Content-Type': file.type },
  });
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
}
