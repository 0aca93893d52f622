import { useRef } from 'react';
import type { User } from '@wagers/contracts/api/user';
import { Button } from '@/components/ui/button.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { UserAvatar } from '@/components/user-avatar.tsx';
import { useUploadAvatar } from '../api/upload-avatar.ts';
import { avatarAccept, avatarFileProblem } from '../utils/avatar-file.ts';

/** `onChange` runs once a new picture is set, to refresh what shows it beyond the profile. */
export function AvatarPicker({ user, onChange }: { user: User; onChange?: () => unknown }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar({
    mutationConfig: {
      onSuccess: async () => {
        toast({ title: 'Avatar updated' });
        await onChange?.();
      },
    },
  });

  const choose = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const problem = avatarFileProblem(file);
    if (problem) {
      toast({ title: 'Invalid file', description: problem, variant: 'destructive' });
      return;
    }
    upload.mutate(file);
  };

  return (
    <div className="flex flex-col items-center gap-3">
      <div className="relative">
        <UserAvatar user={user} size="xl" labelled />
        <Button
          size="icon"
          variant="outline"
          className="absolute -right-1 -bottom-1 size-9 rounded-full"
          aria-label="Change picture"
          disabled={upload.isPending}
          onClick={() => input.current?.click()}
        >
          <Icon name="camera" />
        </Button>
      </div>
      <input
        ref={input}
        type="file"
        accept={avatarAccept}
        className="sr-only"
        tabIndex={-1}
        aria-label="Profile picture file"
        data-testid="avatar-input"
        onChange={(event) => choose(event.target.files?.[0])}
      />
      {upload.isPending ? (
        <p role="status" className="text-sm text-slate-600">
          Uploading...
        </p>
      ) : null}
    </div>
  );
}
