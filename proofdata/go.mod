module alak/proofdata

go 1.26.0
