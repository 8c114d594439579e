/**
 * The spec's catalogue, in correct French. Slugs are the public URLs of the courses. Each course's
 * learners, rating and review count are the institute's figures from before the platform (the
 * spec shows the review count equal to the learner count): the imported baseline, to which the
 * pages add the enrolments and reviews made here.
 */

export const seedInstitute = {
  id: 1,
  name: "Institut Consulaire d'Études et de Formation",
  shortName: "ICEF",
  chamberName: "Chambre de Commerce et d'Industrie du Mali",
  chamberAcronym: "CCIM",
  tagline: "Œuvre de la CCIM",
  phones: ["+223 20 22 50 36", "+223 76 45 12 89", "+223 66 18 73 40"],
  email: "contact@icef.ml",
  address: "Cité SEMA, Bamako, Mali",
  openingHours: [
    { days: "Lundi – Vendredi", hours: "8h00 – 18h00" },
    { days: "Samedi", hours: "9h00 – 13h00" },
    { days: "Dimanche", hours: "Fermé" },
  ],
  socialLinks: [
    { network: "facebook", label: "Facebook", url: "https://www.facebook.com/ccimali" },
    { network: "linkedin", label: "LinkedIn", url: "https://www.linkedin.com/company/ccim-mali" },
    { network: "youtube", label: "YouTube", url: "https://www.youtube.com/@ccimali" },
  ],
  mapsUrl: "https://www.google.com/maps/search/?api=1&query=Cit%C3%A9+SEMA%2C+Bamako%2C+Mali",
};

export const seedCategories = [
  { slug: "tech", name: "Tech", position: 1 },
  { slug: "marketing", name: "Marketing", position: 2 },
  { slug: "commerce", name: "Commerce", position: 3 },
  { slug: "energie", name: "Énergie", position: 4 },
  { slug: "agriculture", name: "Agriculture", position: 5 },
  { slug: "ingenierie", name: "Ingénierie", position: 6 },
];

export const seedLevels = [
  { slug: "debutant", name: "Débutant", position: 1 },
  { slug: "intermediaire", name: "Intermédiaire", position: 2 },
  { slug: "avance", name: "Avancé", position: 3 },
  { slug: "expert", name: "Expert", position: 4 },
];

export const seedCourses = [
  {
    slug: "intelligence-artificielle",
    title: "Intelligence Artificielle",
    description:
      "Maîtrisez les fondements de l'intelligence artificielle et du machine learning : de Python aux modèles génératifs, avec des projets appliqués aux réalités des entreprises maliennes.",
    level: "avance",
    category: "tech",
    durationWeeks: 12,
    baselineStudentCount: 245,
    baselineRating: 4.9,
    baselineReviewCount: 245,
    priceFcfa: 120000,
    icon: "brain",
    popular: true,
    modules: ["Python & TensorFlow", "Machine Learning", "IA Générative", "Projets pratiques", "Certification officielle"],
    prerequisites: ["Bases de la programmation", "Mathématiques niveau baccalauréat"],
    objectives: [
      "Concevoir et entraîner des modèles de machine learning",
      "Utiliser les outils d'IA générative de façon responsable",
      "Mener un projet d'IA de bout en bout",
    ],
  },
  {
    slug: "cybersecurite",
    title: "Cybersécurité",
    description:
      "Protégez les systèmes d'information : analyse des menaces, sécurité des réseaux, tests d'intrusion éthiques et réponse aux incidents, selon les standards internationaux.",
    level: "avance",
    category: "tech",
    durationWeeks: 10,
    baselineStudentCount: 189,
    baselineRating: 4.8,
    baselineReviewCount: 189,
    priceFcfa: 110000,
    icon: "shield",
    popular: true,
    modules: [
      "Sécurité des réseaux",
      "Cryptographie appliquée",
      "Tests d'intrusion éthiques",
      "Réponse aux incidents",
      "Certification officielle",
    ],
    prerequisites: ["Notions de réseaux informatiques", "Utilisation de Linux en ligne de commande"],
    objectives: [
      "Évaluer les risques d'un système d'information",
      "Mettre en place des défenses réseau efficaces",
      "Réagir méthodiquement à un incident de sécurité",
    ],
  },
  {
    slug: "marketing-digital",
    title: "Marketing Digital",
    description:
      "Développez la présence en ligne de votre entreprise : stratégie digitale, réseaux sociaux, référencement, publicité en ligne et mesure des performances.",
    level: "intermediaire",
    category: "marketing",
    durationWeeks: 8,
    baselineStudentCount: 156,
    baselineRating: 4.7,
    baselineReviewCount: 156,
    priceFcfa: 75000,
    icon: "megaphone",
    popular: false,
    modules: ["Stratégie digitale", "Réseaux sociaux", "Référencement (SEO)", "Publicité en ligne", "Analyse des performances"],
    prerequisites: [],
    objectives: ["Bâtir un plan de marketing digital", "Piloter des campagnes sur les réseaux sociaux"],
  },
  {
    slug: "data-science",
    title: "Data Science",
    description:
      "Transformez les données en décisions : collecte, nettoyage, statistiques, visualisation et modèles prédictifs avec Python et SQL.",
    level: "avance",
    category: "tech",
    durationWeeks: 14,
    baselineStudentCount: 123,
    baselineRating: 4.8,
    baselineReviewCount: 123,
    priceFcfa: 130000,
    icon: "chart-column",
    popular: false,
    modules: [
      "Python pour la donnée",
      "Statistiques appliquées",
      "Visualisation de données",
      "Modèles prédictifs",
      "Projet de fin de parcours",
    ],
    prerequisites: ["Bases de la programmation"],
    objectives: ["Analyser un jeu de données réel", "Présenter des résultats clairs aux décideurs"],
  },
  {
    slug: "developpement-web",
    title: "Développement Web",
    description:
      "Créez des sites et des applications web modernes : HTML, CSS, JavaScript, React et Node.js, jusqu'à la mise en ligne d'un projet complet.",
    level: "intermediaire",
    category: "tech",
    durationWeeks: 16,
    baselineStudentCount: 198,
    baselineRating: 4.9,
    baselineReviewCount: 198,
    priceFcfa: 100000,
    icon: "code",
    popular: false,
    modules: ["HTML & CSS", "JavaScript moderne", "React", "Node.js & bases de données", "Déploiement et projet final"],
    prerequisites: [],
    objectives: ["Construire une application web complète", "Publier un projet en ligne"],
  },
  {
    slug: "transit-douanes-logistiques",
    title: "Transit Douanes Logistiques",
    description:
      "Maîtrisez les opérations de transit et de dédouanement, la réglementation de l'UEMOA et de la CEDEAO et la gestion de la chaîne logistique internationale.",
    level: "intermediaire",
    category: "commerce",
    durationWeeks: 10,
    baselineStudentCount: 87,
    baselineRating: 4.6,
    baselineReviewCount: 87,
    priceFcfa: 85000,
    icon: "truck",
    popular: false,
    modules: [
      "Réglementation douanière",
      "Procédures de dédouanement",
      "Incoterms et commerce international",
      "Logistique et transport",
      "Étude de cas pratiques",
    ],
    prerequisites: [],
    objectives: ["Conduire une opération de dédouanement", "Optimiser une chaîne logistique"],
  },
  {
    slug: "energie-solaire",
    title: "Énergie Solaire",
    description:
      "Dimensionnez, installez et entretenez des systèmes photovoltaïques adaptés au climat du Sahel, pour les foyers comme pour les entreprises.",
    level: "debutant",
    category: "energie",
    durationWeeks: 8,
    baselineStudentCount: 145,
    baselineRating: 4.7,
    baselineReviewCount: 145,
    priceFcfa: 90000,
    icon: "sun",
    popular: false,
    modules: [
      "Principes du photovoltaïque",
      "Dimensionnement des installations",
      "Installation et sécurité",
      "Maintenance des systèmes",
      "Projet d'installation",
    ],
    prerequisites: [],
    objectives: ["Dimensionner une installation solaire", "Installer et entretenir un système en sécurité"],
  },
  {
    slug: "agro-business",
    title: "Agro Business",
    description:
      "Créez et développez une entreprise agricole rentable : chaînes de valeur, transformation, financement, commercialisation et gestion d'exploitation.",
    level: "intermediaire",
    category: "agriculture",
    durationWeeks: 12,
    baselineStudentCount: 167,
    baselineRating: 4.8,
    baselineReviewCount: 167,
    priceFcfa: 95000,
    icon: "sprout",
    popular: false,
    modules: [
      "Chaînes de valeur agricoles",
      "Transformation des produits",
      "Financement agricole",
      "Commercialisation et export",
      "Plan d'affaires",
    ],
    prerequisites: [],
    objectives: ["Rédiger un plan d'affaires agricole", "Identifier les sources de financement"],
  },
  {
    slug: "mecatronique",
    title: "Mécatronique",
    description:
      "Associez mécanique, électronique et informatique : capteurs, automates programmables, robotique et systèmes embarqués pour l'industrie.",
    level: "avance",
    category: "ingenierie",
    durationWeeks: 18,
    baselineStudentCount: 89,
    baselineRating: 4.9,
    baselineReviewCount: 89,
    priceFcfa: 140000,
    icon: "cpu",
    popular: false,
    modules: ["Électronique et capteurs", "Automates programmables", "Systèmes embarqués", "Robotique industrielle", "Projet intégré"],
    prerequisites: ["Bases en électricité", "Notions de programmation"],
    objectives: ["Programmer un automate industriel", "Concevoir un système mécatronique simple"],
  },
  {
    slug: "maintenance-industrielle",
    title: "Maintenance Industrielle",
    description:
      "Assurez la disponibilité des équipements de production : maintenance préventive et corrective, diagnostic des pannes, hydraulique et gestion de la maintenance.",
    level: "intermediaire",
    category: "ingenierie",
    durationWeeks: 14,
    baselineStudentCount: 134,
    baselineRating: 4.6,
    baselineReviewCount: 134,
    priceFcfa: 105000,
    icon: "wrench",
    popular: false,
    modules: [
      "Maintenance préventive",
      "Diagnostic des pannes",
      "Hydraulique et pneumatique",
      "Électricité industrielle",
      "Gestion de la maintenance (GMAO)",
    ],
    prerequisites: [],
    objectives: ["Établir un plan de maintenance préventive", "Diagnostiquer une panne méthodiquement"],
  },
];

/**
 * The first lessons of a seeded course: one per module, the first open as a free preview, so that
 * a learner who enrols in the seeded catalogue has something to follow. Teachers replace them
 * with their own content in the course form.
 */
export function seedLessonsFor(course: { title: string; modules: readonly string[] }) {
  return course.modules.map((module, index) => ({
    title: module,
    description: `Module ${index + 1} sur ${course.modules.length} de la formation «\u00a0${course.title}\u00a0».`,
    content: [
      `Ce module porte sur : ${module}. Il s'appuie sur des cas concrets tirés d'entreprises et d'institutions du Mali et de la sous-région.`,
      "Lisez la leçon, consultez les documents joints quand il y en a, puis marquez la leçon comme terminée : votre progression est enregistrée et vous reprendrez là où vous vous êtes arrêté.",
      "Les séances en direct avec le formateur permettent de poser vos questions et de travailler les exercices en groupe.",
    ].join("\n\n"),
    durationMinutes: 30 + ((index * 15) % 45),
    position: index,
    isFree: index === 0,
  }));
}
