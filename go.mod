module alak

go 1.26
