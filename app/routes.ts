import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

/** Messaging, the same screen in the learners' and the teachers' areas: the list, a new conversation, one conversation (and the unread count the shell follows live). */
function messagingRoutes(area: "dashboard" | "teacher") {
  return [
    route("messages", "routes/messages/messages.tsx", { id: `${area}/messages` }),
    route("messages/nouveau", "routes/messages/messages.tsx", { id: `${area}/messages/nouveau` }),
    route("messages/non-lus", "routes/messages/unread.ts", { id: `${area}/messages/non-lus` }),
    route("messages/:id", "routes/messages/messages.tsx", { id: `${area}/messages/:id` }),
  ];
}

// An explicit table mirroring the spec's route table; public URLs are French.
export default [
  layout("routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("formations", "routes/public/formations.tsx"),
    route("formations/:slug", "routes/public/formation.tsx"),
    // Inside the public layout, but with the full stylesheet (their handle.stylesheet).
    route("formations/:slug/apercu/:lessonId", "routes/public/formation-apercu.tsx"),
    route("formations/:slug/inscription", "routes/public/formation-inscription.tsx"),
    route("paiement/bac-a-sable/:reference", "routes/payments/sandbox-gateway.tsx"),
    route("a-propos", "routes/public/a-propos.tsx"),
    route("contact", "routes/public/contact.tsx"),
    route("confidentialite", "routes/public/confidentialite.tsx"),
    route("conditions-utilisation", "routes/public/conditions-utilisation.tsx"),
    route("mentions-legales", "routes/public/mentions-legales.tsx"),
    route("newsletter", "routes/public/newsletter.tsx"),
    route("newsletter/desinscription", "routes/public/newsletter-desinscription.tsx"),
    route("newsletter/confirmation", "routes/public/newsletter-confirmation.tsx"),
    // Certificates: anyone verifies one (the QR code's URL, or the code typed in the form).
    route("certificats", "routes/public/certificats.tsx"),
    route("certificats/:code", "routes/public/certificat.tsx"),
    route("*", "routes/public/not-found.tsx"),
  ]),
  route("auth", "routes/auth/auth.tsx"),
  // Payments: where providers send the learner back, and their server-to-server notifications.
  route("paiement/retour", "routes/payments/return.tsx"),
  route("api/paiements/notification/:provider", "routes/payments/notification.ts"),
  route("api/paiements/notification/commissions", "routes/payments/payout-notification.ts"),
  route("auth/verification", "routes/auth/verification.tsx"),
  route("auth/appareil", "routes/auth/appareil.tsx"),
  route("auth/deconnexion", "routes/auth/deconnexion.tsx"),
  route("auth/compte-supprime", "routes/auth/compte-supprime.tsx"),
  route("connexion", "routes/auth/connexion.tsx"),
  route("inscription", "routes/auth/inscription.tsx"),
  // Signed-in areas (document 2's route table). Each layout's middleware guards every route below
  // it: /dashboard/* any signed-in user, /admin/* admins, /teacher/* teachers (or admins); the
  // course form adds its own (teachers, or admins).
  route("dashboard", "routes/dashboard/layout.tsx", [
    index("routes/dashboard/index.tsx"),
    route("profile", "routes/dashboard/profile.tsx"),
    route("profile/mes-donnees", "routes/dashboard/mes-donnees.ts"),
    route("profile/suppression", "routes/dashboard/suppression-compte.tsx"),
    route("formations", "routes/dashboard/formations.tsx"),
    route("formations/:slug", "routes/dashboard/formation.tsx"),
    route("formations/:slug/lecons/:lessonId", "routes/dashboard/lecon.tsx"),
    route("formations/:slug/lecons/:lessonId/position", "routes/dashboard/lecon-position.ts"),
    route("formations/:slug/lecons/:lessonId/progression", "routes/dashboard/lecon-progression.ts"),
    route("formations/:slug/hors-ligne", "routes/dashboard/hors-ligne.ts"),
    route("telechargements", "routes/dashboard/telechargements.tsx"),
    route("formations/:slug/quiz/:quizId", "routes/dashboard/quiz.tsx"),
    route("formations/:slug/quiz/:quizId/tentatives/:attemptId", "routes/dashboard/quiz-tentative.tsx"),
    route("formations/:slug/quiz/:quizId/hors-ligne", "routes/dashboard/quiz-hors-ligne.ts"),
    route("paiements", "routes/dashboard/paiements.tsx"),
    route("paiements/:reference", "routes/dashboard/paiement.tsx"),
    route("paiements/:reference/recu.pdf", "routes/dashboard/recu.ts"),
    route("notifications", "routes/dashboard/notifications.tsx"),
    route("forum", "routes/dashboard/forum.tsx"),
    route("forum/:id", "routes/dashboard/forum-sujet.tsx"),
    route("certificates", "routes/dashboard/certificates.tsx"),
    route("certificates/:code/certificat.pdf", "routes/dashboard/certificat-pdf.ts"),
    route("certificates/:code/badge.jwt", "routes/dashboard/certificat-badge.ts"),
    route("certificates/:code/badge.png", "routes/dashboard/certificat-badge-png.ts"),
    ...messagingRoutes("dashboard"),
    route("recherche", "routes/search/recherche.tsx", { id: "dashboard/recherche" }),
    // Live sessions (the learner's list and calendar address; joining; one session's .ics).
    route("sessions", "routes/dashboard/sessions.tsx"),
    route("sessions/:id/rejoindre", "routes/dashboard/session-join.ts"),
    route("sessions/:id/calendrier.ics", "routes/dashboard/session-ics.ts"),
    // The course form (new, edit): teachers and admins.
    route("course-creator", "routes/teacher/course-form.tsx", { id: "dashboard/course-creator" }),
    route("course-creator/:id", "routes/teacher/course-form.tsx", { id: "dashboard/course-creator/:id" }),
  ]),
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/index.tsx"),
    route("users", "routes/admin/users.tsx"),
    // CSV downloads: resource routes (no component), guarded by the layout's middleware like its pages.
    route("users/export.csv", "routes/admin/users-export.tsx"),
    route("my-courses", "routes/teacher/course-list.tsx", { id: "admin/my-courses" }),
    route("my-courses/export.csv", "routes/teacher/course-list-export.tsx", { id: "admin/my-courses/export.csv" }),
    route("create-course", "routes/teacher/course-form.tsx", { id: "admin/create-course" }),
    route("financial", "routes/admin/financial.tsx"),
    // Payments paid at the provider after they failed: settled one by one (issue 9).
    route("financial/rapprochement", "routes/admin/financial-reconciliation.tsx"),
    route("financial/export", "routes/admin/financial-export.ts"),
    // Reports: generated (POST), kept, then downloaded as CSV or PDF.
    route("rapports", "routes/admin/rapports.tsx"),
    route("rapports/:id/:format", "routes/admin/rapport-fichier.ts"),
    route("forum", "routes/admin/forum-signalements.tsx"),
    route("messages", "routes/admin/messages.tsx"),
    route("messages/:id", "routes/admin/message.tsx"),
    route("inscriptions", "routes/admin/enrolments.tsx"),
    route("newsletter", "routes/admin/newsletter.tsx"),
    route("newsletter/abonnes.csv", "routes/admin/newsletter-export.tsx"),
    // Course reviews: both parts of each rating, and hiding an abusive review.
    route("avis", "routes/teacher/reviews.tsx", { id: "admin/avis" }),
    route("certificates", "routes/admin/certificates.tsx"),
    // Advanced analytics: the period changes every figure; "Exporter" gives them all as JSON.
    route("analytics", "routes/admin/analytics.tsx"),
    route("analytics/export", "routes/admin/analytics-export.ts"),
  ]),
  route("teacher", "routes/teacher/layout.tsx", [
    index("routes/teacher/index.tsx"),
    route("courses", "routes/teacher/course-list.tsx", { id: "teacher/courses" }),
    route("courses/export.csv", "routes/teacher/course-list-export.tsx", { id: "teacher/courses/export.csv" }),
    route("create-course", "routes/teacher/course-form.tsx", { id: "teacher/create-course" }),
    route("notifications", "routes/dashboard/notifications.tsx", { id: "teacher/notifications" }),
    route("commissions", "routes/teacher/commissions.tsx"),
    ...messagingRoutes("teacher"),
    route("recherche", "routes/search/recherche.tsx", { id: "teacher/recherche" }),
    route("students", "routes/teacher/students.tsx"),
    route("students/export.csv", "routes/teacher/students-export.tsx"),
    route("students/:id", "routes/teacher/student.tsx"),
    route("sessions", "routes/teacher/sessions.tsx"),
    route("sessions/:id", "routes/teacher/session.tsx"),
    route("schedule", "routes/teacher/schedule.tsx"),
    route("analytics", "routes/teacher/analytics.tsx"),
    route("avis", "routes/teacher/reviews.tsx", { id: "teacher/avis" }),
    // Quizzes: the list, the create/edit dialog (?quiz=), results and analytics (?onglet=resultats); a quiz's results as CSV.
    route("quiz", "routes/teacher/quiz.tsx"),
    route("quiz/:id/resultats.csv", "routes/teacher/quiz-export.ts"),
    route("settings", "routes/teacher/settings.tsx"),
    route("content", "routes/teacher/content.tsx"),
  ]),
  // The issuer, its keys and its revocation list (JSON, for verifiers without our pages).
  ...["emetteur", "cles", "cles/:kid", "statut"].map((path) =>
    route(`certificats/${path}`, "routes/public/certificats-publics.ts", { id: `certificats/${path}` }),
  ),
  // Each certificate's credential, public like its verification page (JSON, and signed as a VC-JWT).
  ...["json", "jwt"].map((format) =>
    route(`certificats/:code/attestation.${format}`, "routes/public/certificat-attestation.ts", {
      id: `certificats/attestation.${format}`,
    }),
  ),
  route("barre-laterale", "routes/shell/sidebar.ts"),
  // A person's private calendar feed (live sessions), read by calendar apps without a session.
  route("calendrier/:feed", "routes/public/calendar-feed.ts"),
  // Stored files (thumbnails, lesson videos and documents), each checked against who asks.
  route("fichiers/:id", "routes/files/file.ts"),
  route("fichiers/:id/versions", "routes/files/file-versions.ts"),
  route("sitemap.xml", "routes/seo/sitemap.tsx"),
  route("robots.txt", "routes/seo/robots.tsx"),
] satisfies RouteConfig;
