import type { ReactNode } from 'react';
import { site } from '@/config/site.ts';

/** Long-form text page: a title, the date it was last changed, and numbered sections. */
export function LegalPage({
  title,
  intro,
  children,
}: {
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <article className="mx-auto grid max-w-3xl gap-6 rounded-xl border border-slate-200 bg-white p-5 text-slate-800 shadow-sm sm:p-10">
      <header className="grid gap-2">
        <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
        <p className="text-sm text-slate-600" data-testid="legal-updated">
          Last updated: {site.legalUpdated}
        </p>
        <div className="mt-2 grid gap-3 leading-relaxed">{intro}</div>
      </header>
      {children}
    </article>
  );
}

export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-3 leading-relaxed">
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

export function Bullets({ items }: { items: ReactNode[] }) {
  return (
    <ul className="grid list-disc gap-1.5 pl-6">
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}

export function Mailbox({ address }: { address: string }) {
  return (
    <a
      className="font-medium text-indigo-800 underline underline-offset-4"
      href={`mailto:${address}`}
    >
      {address}
    </a>
  );
}
