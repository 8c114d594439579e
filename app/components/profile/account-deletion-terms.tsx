/**
 * What « Supprimer mon compte » deletes and what it keeps, and why (docs/decisions/0045-account-deletion.md):
 * the same words on the profile and on the confirmation page.
 */
export function AccountDeletionTerms() {
  return (
    <div className="space-y-5 text-slate-800">
      <section aria-labelledby="supprime-titre" className="space-y-2">
        <h2 id="supprime-titre" className="text-lg font-semibold text-slate-900">
          Ce qui est supprimé
        </h2>
        <ul className="list-disc space-y-1 pl-5">
          <li>Vos prénom, nom, adresse e-mail et numéro de téléphone.</li>
          <li>Votre mot de passe, vos sessions et votre double authentification : plus personne ne pourra se connecter à ce compte.</li>
          <li>Vos notifications, vos choix d'e-mails et le journal d'activité du compte (adresses IP, appareils).</li>
          <li>Vos inscriptions sont fermées : vous n'aurez plus accès aux formations, même payées.</li>
        </ul>
      </section>
      <section aria-labelledby="garde-titre" className="space-y-2">
        <h2 id="garde-titre" className="text-lg font-semibold text-slate-900">
          Ce qui est gardé, sans votre nom, et pourquoi
        </h2>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>Vos paiements</strong> : la loi oblige l'institut à conserver ses pièces comptables pendant dix ans (Acte uniforme OHADA
            relatif au droit comptable). Ils restent rattachés à un « Compte supprimé », sans nom ni e-mail.
          </li>
          <li>
            <strong>Vos certificats</strong> : un employeur doit pouvoir vérifier le numéro d'un certificat que vous lui avez remis. Le
            numéro reste valide, mais le titulaire devient « Compte supprimé ». Téléchargez vos certificats avant : nous ne pourrons plus
            vous les remettre.
          </li>
          <li>
            <strong>Vos sujets et réponses du forum et les messages que vous avez envoyés</strong> : ils font partie de conversations avec
            d'autres personnes et restent visibles d'elles, signés « Compte supprimé ».
          </li>
          <li>
            <strong>Votre progression et vos résultats de quiz</strong> restent, sans nom, dans les statistiques des formations.
          </li>
        </ul>
      </section>
      <p>Votre adresse e-mail est libérée : vous pourrez créer un nouveau compte avec elle, mais il ne retrouvera rien de celui-ci.</p>
    </div>
  );
}
