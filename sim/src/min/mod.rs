//! Self-routing multistage networks (baseline, omega, indirect binary n-cube) and
//! optimal all-to-all personalized exchange by Latin squares (seed 004).
