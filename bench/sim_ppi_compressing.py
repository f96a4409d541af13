"""Coverage of the PPI intervals at 30 gold queries with compressing proxies (issue 45):

    nice -n 5 .venv/bin/python bench/sim_ppi_compressing.py

4,000 samples per row, N = 2,000 proxy-only queries, true difference 0.01; gold differences
normal or skewed (centred exponential), proxies that shrink them (0.5 or 0.3 x gold + noise).
"""
import numpy as np
from ranklens.stats.ppi import estimate, regression_lambda, optimal_lambda
from ranklens.stats.distributions import t_quantile, normal_quantile
rng=np.random.default_rng(45)
R,n,N,d=4000,30,2000,0.01
for name,f in [("compress .5",lambda g,r: 0.5*g+r.normal(0,0.02,g.shape)),("compress .3",lambda g,r: 0.3*g+0.005+r.normal(0,0.01,g.shape)),("compress .5 skew", lambda g,r: 0.5*g + r.exponential(0.02,g.shape)-0.02)]:
  for gdist in ("normal","skewed"):
    if gdist=="normal": gold=rng.normal(d,0.1,(R,n+N))
    else: gold=d+0.1*(rng.exponential(1,(R,n+N))-1)
    prox=f(gold,rng)
    g,pg,pu=gold[:,:n],prox[:,:n],prox[:,n:]
    lam=regression_lambda(g,pg,pu)
    v,var=estimate(g,pg,pu,lam,ddof=2)
    half=t_quantile(0.975,n-2)*np.sqrt(var)
    lam2=optimal_lambda(g,pg,pu,covariance_ddof=0); v2,var2=estimate(g,pg,pu,lam2,ddof=0,proxy_ddof=0)
    h2=normal_quantile(0.975)*np.sqrt(var2)
    print(name,gdist,"finite",np.mean(np.abs(v-d)<=half).round(4),"asym",np.mean(np.abs(v2-d)<=h2).round(4), "MC", round(np.sqrt(.95*.05/R),4))
