export function meta() {
  return [{ title: "Compte supprimé" }, { name: "robots", content: "noindex" }];
}

/** Where a deleted account's browser lands, signed out: what happened and what was kept. */
export default function AccountDeletedPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-4 p-6">
      <h1 className="text-2xl font-bold text-slate-900">Votre compte a été supprimé</h1>
      <p role="status" className="text-slate-800">
        Toutes les sessions du compte sont fermées, sur cet appareil comme sur les autres. Vos données personnelles ont été effacées ;
        personne ne peut plus se connecter à ce compte.
      </p>
      <p className="text-slate-800">
        Comme la loi l'exige, l'institut garde vos paiements (pièces comptables) et vos certificats (pour qu'un employeur puisse en vérifier
        le numéro), sans votre nom ni votre adresse e-mail.
      </p>
      <p className="text-slate-800">Vous pouvez créer un nouveau compte avec la même adresse e-mail quand vous le souhaitez.</p>
      <p className="flex flex-wrap gap-4">
        <a href="/" className="font-medium text-brand-700 underline">
          Retour à l'accueil
        </a>
        <a href="/inscription" className="font-medium text-brand-700 underline">
          Créer un compte
        </a>
      </p>
    </main>
  );
}
