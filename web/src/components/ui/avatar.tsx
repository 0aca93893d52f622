import * as AvatarPrimitive from '@radix-ui/react-avatar';
import { cn } from '@/lib/cn.ts';

const sizes = {
  sm: 'size-8 text-xs',
  md: 'size-10 text-sm',
  lg: 'size-16 text-xl',
  xl: 'size-24 text-3xl',
} as const;

export type AvatarSize = keyof typeof sizes;

/** A round picture with initials shown until (or instead of) the image. */
export function Avatar({
  src,
  fallback,
  alt,
  size = 'md',
  className,
}: {
  src?: string | null;
  fallback: string;
  /** Describe the person; omit when a visible name sits next to the avatar. */
  alt?: string;
  size?: AvatarSize;
  className?: string;
}) {
  return (
    <AvatarPrimitive.Root
      className={cn(
        'relative flex shrink-0 overflow-hidden rounded-full bg-indigo-100',
        sizes[size],
        className,
      )}
      role={alt ? 'img' : undefined}
      aria-label={alt}
    >
      {src ? (
        <AvatarPrimitive.Image src={src} alt="" className="aspect-square size-full object-cover" />
      ) : null}
      <AvatarPrimitive.Fallback
        aria-hidden="true"
        className="flex size-full items-center justify-center font-semibold text-indigo-900"
      >
        {fallback}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
