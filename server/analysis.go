package server

import (
	"context"

	"alak/server/internal/analysis"
	"alak/server/internal/game"
)

// analysisGame is a game's state as package analysis reads it: its row,
// its rules and its moves (the session's game, which the analysis only
// reads).
func analysisGame(st *game.State) analysis.Game {
	return analysis.Game{Row: st.Row, Rules: st.Rules, Game: st.Sess.Game()}
}

// loadAnalysisGame loads game id for package analysis (analysis.LoadGame).
func (s *Server) loadAnalysisGame(ctx context.Context, id string) (analysis.Game, error) {
	st, err := s.core.Load(ctx, id)
	if err != nil {
		return analysis.Game{}, err
	}
	return analysisGame(st), nil
}
