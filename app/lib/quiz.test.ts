import { describe, expect, it } from "vitest";
import {
  gradeAttempt,
  nextRequiredQuiz,
  normalizeShortAnswer,
  prepareAttemptQuestions,
  questionAnalysis,
  quizStats,
  scoreDistribution,
  successTone,
  type QuizQuestion,
} from "./quiz";

const qcm: QuizQuestion = {
  id: "q_a",
  type: "multiple_choice",
  question: "Quelle unité mesure la puissance ?",
  options: ["Le volt", "Le watt", "L'ampère", "L'ohm"],
  correctAnswer: "1",
  points: 2,
  explanation: "La puissance se mesure en watts.",
};
const trueFalse: QuizQuestion = { ...qcm, id: "q_b", type: "true_false", options: [], correctAnswer: "false", points: 1 };
const short: QuizQuestion = { ...qcm, id: "q_c", type: "short_answer", options: [], correctAnswer: "Énergie solaire", points: 1 };

describe("grading", () => {
  it("scores each type and weighs by points", () => {
    const all = gradeAttempt([qcm, trueFalse, short], { q_a: "1", q_b: "false", q_c: "  energie   SOLAIRE " }, 70);
    expect(all).toMatchObject({ earnedPoints: 4, totalPoints: 4, score: 100, passed: true });
    const some = gradeAttempt([qcm, trueFalse, short], { q_a: "2", q_b: "false", q_c: "énergie éolienne" }, 70);
    expect(some.results.map((result) => result.correct)).toEqual([false, true, false]);
    expect(some).toMatchObject({ earnedPoints: 1, score: 25, passed: false });
  });

  it("rounds to two decimals and passes at exactly the passing score", () => {
    const three = [trueFalse, { ...trueFalse, id: "q_d" }, { ...trueFalse, id: "q_e" }];
    expect(gradeAttempt(three, { q_b: "false" }, 70).score).toBe(33.33);
    expect(gradeAttempt([qcm, trueFalse, short, { ...short, id: "q_f" }], { q_a: "1", q_b: "false" }, 60)).toMatchObject({
      score: 60,
      passed: true,
    });
  });

  it("counts a missing or empty answer as wrong, and never an empty expected text as right", () => {
    expect(gradeAttempt([qcm], {}, 0).results[0]!.correct).toBe(false);
    expect(gradeAttempt([{ ...short, correctAnswer: "" }], { q_c: "" }, 0).results[0]!.correct).toBe(false);
  });

  it("compares short answers ignoring case, accents and extra spaces only", () => {
    expect(normalizeShortAnswer("  L’Énergie\tSOLAIRE  ")).toBe("l'energie solaire");
    expect(normalizeShortAnswer("energie-solaire")).not.toBe(normalizeShortAnswer("energie solaire"));
  });
});

describe("attempt questions", () => {
  it("keeps order and options unless the quiz shuffles, and follows the right option when shuffling", () => {
    expect(prepareAttemptQuestions([qcm, trueFalse], { shuffleQuestions: false, shuffleOptions: false })).toEqual([qcm, trueFalse]);
    let seed = 0.3;
    const random = () => (seed = (seed * 9301 + 0.49297) % 1);
    for (let run = 0; run < 20; run += 1) {
      const [given] = prepareAttemptQuestions([qcm], { shuffleQuestions: true, shuffleOptions: true }, random);
      expect(given!.options.toSorted()).toEqual(qcm.options.toSorted());
      expect(given!.options[Number(given!.correctAnswer)]).toBe("Le watt");
    }
  });
});

describe("the next step towards the certificate", () => {
  const quiz = { required: true, passed: false, attemptsUsed: 0, maxAttempts: 3, inProgressId: null };

  it("is the first required quiz not passed that has an attempt left", () => {
    const quizzes = [
      { ...quiz, id: 1, required: false },
      { ...quiz, id: 2, passed: true },
      { ...quiz, id: 3, attemptsUsed: 3 },
      { ...quiz, id: 4, attemptsUsed: 2 },
      { ...quiz, id: 5 },
    ];
    expect(nextRequiredQuiz(quizzes)?.id).toBe(4);
  });

  it("counts an attempt in progress as one left, and is nothing once every required quiz is passed or spent", () => {
    expect(nextRequiredQuiz([{ ...quiz, id: 1, attemptsUsed: 3, inProgressId: 9 }])?.id).toBe(1);
    expect(
      nextRequiredQuiz([
        { ...quiz, id: 1, passed: true },
        { ...quiz, id: 2, attemptsUsed: 3 },
        { ...quiz, id: 3, required: false },
      ]),
    ).toBeUndefined();
  });
});

describe("statistics", () => {
  const attempts = [
    { userId: "a", score: 50, passed: false },
    { userId: "a", score: 80, passed: true },
    { userId: "b", score: 65, passed: false },
    { userId: "c", score: 100, passed: true },
  ];

  it("gives the spec's five figures, the student rate on each best attempt", () => {
    expect(quizStats(attempts)).toEqual({
      totalAttempts: 4,
      uniqueStudents: 3,
      averageScore: 73.75,
      attemptPassRate: 50,
      studentPassRate: 66.67,
    });
    expect(quizStats([])).toEqual({ totalAttempts: 0, uniqueStudents: 0, averageScore: 0, attemptPassRate: 0, studentPassRate: 0 });
  });

  it("puts scores in the five buckets, bounds included in the lower one", () => {
    expect(scoreDistribution([0, 20, 20.5, 40, 60, 61, 80, 80.01, 100]).map((bucket) => bucket.count)).toEqual([2, 2, 1, 2, 2]);
  });

  it("rates each question over the attempts given it, with the spec's badge thresholds", () => {
    const analysis = questionAnalysis(
      [qcm, trueFalse],
      [
        {
          questions: [qcm, trueFalse],
          results: [
            { questionId: "q_a", correct: true, points: 2, earned: 2 },
            { questionId: "q_b", correct: false, points: 1, earned: 0 },
          ],
        },
        {
          questions: [qcm, short],
          results: [
            { questionId: "q_a", correct: false, points: 2, earned: 0 },
            { questionId: "q_c", correct: true, points: 1, earned: 1 },
          ],
        },
      ],
    );
    expect(analysis.map(({ id, asked, rate }) => ({ id, asked, rate }))).toEqual([
      { id: "q_a", asked: 2, rate: 50 },
      { id: "q_b", asked: 1, rate: 0 },
      { id: "q_c", asked: 1, rate: 100 },
    ]);
    expect([successTone(70), successTone(69.99), successTone(50), successTone(49.99)]).toEqual([
      "default",
      "secondary",
      "secondary",
      "destructive",
    ]);
  });
});
