#!/bin/sh
# origin: shared/models/seeds/beverage_gen.sh (the beverage machine of Fellner et al., SEFM'19, generalised to tank capacity C)
# beverage_gen.sh C [refill] [drinks]: the beverage machine with tank capacity C.
# refill: what "fill" puts in an empty tank (default C; C-1 is the classic
# mutant; "{1,2}"-style sets make it non-deterministic).  drinks: the served
# set (default "{coff, tea}").
C=$1; R=${2:-$1}; D=${3:-"{coff, tea}"}
cat <<SMV
MODULE main
IVAR
  inp : {none, req, fill};
VAR
  wtr : 0..$C;
  out : {eps, coff, tea};
ASSIGN
  init(wtr) := $C;
  init(out) := eps;
  next(out) := case
      inp = req & wtr > 0 : $D;
      TRUE                : eps;
    esac;
  next(wtr) := case
      inp = fill & wtr = 0 : $R;
      inp = req & wtr > 0  : wtr - 1;
      TRUE                 : wtr;
    esac;
SMV
