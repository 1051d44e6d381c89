import type { ObjectMeta } from "@kbts/runtime";
export interface T0 {
  a?: T1;
}
export interface T1 {
  a?: T2;
}
export interface T2 {
  a?: T3;
}
export interface T3 {
  a?: T4;
}
export interface T4 {
  a?: T5;
}
export interface T5 {
  a?: T6;
}
export interface T6 {
  a?: T7;
}
export interface T7 {
  a?: T8;
}
export interface T8 {
  a?: T9;
}
export interface T9 {
  a?: T10;
}
export interface T10 {
  a?: T11;
}
export interface T11 {
  a?: T12;
}
export interface T12 {
  a?: T13;
}
export interface T13 {
  a?: T14;
}
export interface T14 {
  a?: T15;
}
export interface T15 {
  a?: T16;
}
export interface T16 {
  a?: T17;
}
export interface T17 {
  a?: T18;
}
export interface T18 {
  a?: T19;
}
export interface T19 {
  a?: T20;
}
export interface T20 {
  a?: T21;
}
export interface T21 {
  a?: T22;
}
export interface T22 {
  a?: T23;
}
export interface T23 {
  a?: T24;
}
export interface T24 {
  a?: T25;
}
export interface T25 {
  a?: T26;
}
export interface T26 {
  a?: T27;
}
export interface T27 {
  a?: T28;
}
export interface T28 {
  a?: T29;
}
export interface T29 {
  a?: T30;
}
export interface T30 {
  a?: T31;
}
export interface T31 {
  a?: T32;
}
export interface T32 {
  a?: T33;
}
export interface T33 {
  a?: T34;
}
export interface T34 {
  a?: T35;
}
export interface T35 {
  a?: T36;
}
export interface T36 {
  a?: T37;
}
export interface T37 {
  a?: T38;
}
export interface T38 {
  a?: T39;
}
export interface T39 {
  a?: T40;
}
export interface T40 {
  a?: T41;
}
export interface T41 {
  a?: T42;
}
export interface T42 {
  a?: T43;
}
export interface T43 {
  a?: T44;
}
export interface T44 {
  a?: T45;
}
export interface T45 {
  a?: T46;
}
export interface T46 {
  a?: T47;
}
export interface T47 {
  a?: T48;
}
export interface T48 {
  a?: T49;
}
export interface T49 {
  a?: T50;
}
export interface T50 {
  a?: T51;
}
export interface T51 {
  a?: T52;
}
export interface T52 {
  a?: T53;
}
export interface T53 {
  a?: T54;
}
export interface T54 {
  a?: T55;
}
export interface T55 {
  a?: T56;
}
export interface T56 {
  a?: T57;
}
export interface T57 {
  a?: T58;
}
export interface T58 {
  a?: T59;
}
export interface T59 {
  a?: T60;
}
export interface T60 {
  a?: T61;
}
export interface T61 {
  a?: T62;
}
export interface T62 {
  a?: T63;
}
export interface T63 {
  a?: T64;
}
export interface T64 {
  a?: T65;
}
export interface T65 {
  a?: T66;
}
export interface T66 {
  a?: T67;
}
export interface T67 {
  a?: T68;
}
export interface T68 {
  a?: T69;
}
export interface T69 {
  a?: T70;
}
export interface T70 {
  a?: T71;
}
export interface T71 {
  a?: T72;
}
export interface T72 {
  a?: T73;
}
export interface T73 {
  a?: T74;
}
export interface T74 {
  a?: T75;
}
export interface T75 {
  a?: T76;
}
export interface T76 {
  a?: T77;
}
export interface T77 {
  a?: T78;
}
export interface T78 {
  a?: T79;
}
export interface T79 {
  a?: T80;
}
export interface T80 {
  a?: T81;
}
export interface T81 {
  a?: T82;
}
export interface T82 {
  a?: T83;
}
export interface T83 {
  a?: T84;
}
export interface T84 {
  a?: T85;
}
export interface T85 {
  a?: T86;
}
export interface T86 {
  a?: T87;
}
export interface T87 {
  a?: T88;
}
export interface T88 {
  a?: T89;
}
export interface T89 {
  a?: T90;
}
export interface T90 {
  a?: T91;
}
export interface T91 {
  a?: T92;
}
export interface T92 {
  a?: T93;
}
export interface T93 {
  a?: T94;
}
export interface T94 {
  a?: T95;
}
export interface T95 {
  a?: T96;
}
export interface T96 {
  a?: T97;
}
export interface T97 {
  a?: T98;
}
export interface T98 {
  a?: T99;
}
export interface T99 {
  a?: T100;
}
export interface T100 {
  a?: T101;
}
export interface T101 {
  a?: T102;
}
export interface T102 {
  a?: T103;
}
export interface T103 {
  a?: T104;
}
export interface T104 {
  a?: T105;
}
export interface T105 {
  a?: T106;
}
export interface T106 {
  a?: T107;
}
export interface T107 {
  a?: T108;
}
export interface T108 {
  a?: T109;
}
export interface T109 {
  a?: T110;
}
export interface T110 {
  a?: T111;
}
export interface T111 {
  a?: T112;
}
export interface T112 {
  a?: T113;
}
export interface T113 {
  a?: T114;
}
export interface T114 {
  a?: T115;
}
export interface T115 {
  a?: T116;
}
export interface T116 {
  a?: T117;
}
export interface T117 {
  a?: T118;
}
export interface T118 {
  a?: T119;
}
export interface T119 {
  a?: T120;
}
export interface T120 {
  a?: T121;
}
export interface T121 {
  a?: T122;
}
export interface T122 {
  a?: T123;
}
export interface T123 {
  a?: T124;
}
export interface T124 {
  a?: T125;
}
export interface T125 {
  a?: T126;
}
export interface T126 {
  a?: T127;
}
export interface T127 {
  a?: T128;
}
export interface T128 {
  a?: T129;
}
export interface T129 {
  a?: T130;
}
export interface T130 {
  a?: T131;
}
export interface T131 {
  a?: T132;
}
export interface T132 {
  a?: T133;
}
export interface T133 {
  a?: T134;
}
export interface T134 {
  a?: T135;
}
export interface T135 {
  a?: T136;
}
export interface T136 {
  a?: T137;
}
export interface T137 {
  a?: T138;
}
export interface T138 {
  a?: T139;
}
export interface T139 {
  a?: T140;
}
export interface T140 {
  a?: T141;
}
export interface T141 {
  a?: T142;
}
export interface T142 {
  a?: T143;
}
export interface T143 {
  a?: T144;
}
export interface T144 {
  a?: T145;
}
export interface T145 {
  a?: T146;
}
export interface T146 {
  a?: T147;
}
export interface T147 {
  a?: T148;
}
export interface T148 {
  a?: T149;
}
export interface T149 {
  a?: T150;
}
export interface T150 {
  a?: T151;
}
export interface T151 {
  a?: T152;
}
export interface T152 {
  a?: T153;
}
export interface T153 {
  a?: T154;
}
export interface T154 {
  a?: T155;
}
export interface T155 {
  a?: T156;
}
export interface T156 {
  a?: T157;
}
export interface T157 {
  a?: T158;
}
export interface T158 {
  a?: T159;
}
export interface T159 {
  a?: T160;
}
export interface T160 {
  a?: T161;
}
export interface T161 {
  a?: T162;
}
export interface T162 {
  a?: T163;
}
export interface T163 {
  a?: T164;
}
export interface T164 {
  a?: T165;
}
export interface T165 {
  a?: T166;
}
export interface T166 {
  a?: T167;
}
export interface T167 {
  a?: T168;
}
export interface T168 {
  a?: T169;
}
export interface T169 {
  a?: T170;
}
export interface T170 {
  a?: T171;
}
export interface T171 {
  a?: T172;
}
export interface T172 {
  a?: T173;
}
export interface T173 {
  a?: T174;
}
export interface T174 {
  a?: T175;
}
export interface T175 {
  a?: T176;
}
export interface T176 {
  a?: T177;
}
export interface T177 {
  a?: T178;
}
export interface T178 {
  a?: T179;
}
export interface T179 {
  a?: T180;
}
export interface T180 {
  a?: T181;
}
export interface T181 {
  a?: T182;
}
export interface T182 {
  a?: T183;
}
export interface T183 {
  a?: T184;
}
export interface T184 {
  a?: T185;
}
export interface T185 {
  a?: T186;
}
export interface T186 {
  a?: T187;
}
export interface T187 {
  a?: T188;
}
export interface T188 {
  a?: T189;
}
export interface T189 {
  a?: T190;
}
export interface T190 {
  a?: T191;
}
export interface T191 {
  a?: T192;
}
export interface T192 {
  a?: T193;
}
export interface T193 {
  a?: T194;
}
export interface T194 {
  a?: T195;
}
export interface T195 {
  a?: T196;
}
export interface T196 {
  a?: T197;
}
export interface T197 {
  a?: T198;
}
export interface T198 {
  a?: T199;
}
export interface T199 {
  a?: T200;
}
export interface T200 {
  a?: T201;
}
export interface T201 {
  a?: T202;
}
export interface T202 {
  a?: T203;
}
export interface T203 {
  a?: T204;
}
export interface T204 {
  a?: T205;
}
export interface T205 {
  a?: T206;
}
export interface T206 {
  a?: T207;
}
export interface T207 {
  a?: T208;
}
export interface T208 {
  a?: T209;
}
export interface T209 {
  a?: T210;
}
export interface T210 {
  a?: T211;
}
export interface T211 {
  a?: T212;
}
export interface T212 {
  a?: T213;
}
export interface T213 {
  a?: T214;
}
export interface T214 {
  a?: T215;
}
export interface T215 {
  a?: T216;
}
export interface T216 {
  a?: T217;
}
export interface T217 {
  a?: T218;
}
export interface T218 {
  a?: T219;
}
export interface T219 {
  a?: T220;
}
export interface T220 {
  a?: T221;
}
export interface T221 {
  a?: T222;
}
export interface T222 {
  a?: T223;
}
export interface T223 {
  a?: T224;
}
export interface T224 {
  a?: T225;
}
export interface T225 {
  a?: T226;
}
export interface T226 {
  a?: T227;
}
export interface T227 {
  a?: T228;
}
export interface T228 {
  a?: T229;
}
export interface T229 {
  a?: T230;
}
export interface T230 {
  a?: T231;
}
export interface T231 {
  a?: T232;
}
export interface T232 {
  a?: T233;
}
export interface T233 {
  a?: T234;
}
export interface T234 {
  a?: T235;
}
export interface T235 {
  a?: T236;
}
export interface T236 {
  a?: T237;
}
export interface T237 {
  a?: T238;
}
export interface T238 {
  a?: T239;
}
export interface T239 {
  a?: T240;
}
export interface T240 {
  a?: T241;
}
export interface T241 {
  a?: T242;
}
export interface T242 {
  a?: T243;
}
export interface T243 {
  a?: T244;
}
export interface T244 {
  a?: T245;
}
export interface T245 {
  a?: T246;
}
export interface T246 {
  a?: T247;
}
export interface T247 {
  a?: T248;
}
export interface T248 {
  a?: T249;
}
export interface T249 {
  a?: T250;
}
export interface T250 {
  a?: T251;
}
export interface T251 {
  a?: T252;
}
export interface T252 {
  a?: T253;
}
export interface T253 {
  a?: T254;
}
export interface T254 {
  a?: T255;
}
export interface T255 {
  a?: T256;
}
export interface T256 {
  a?: T257;
}
export interface T257 {
  a?: T258;
}
export interface T258 {
  a?: T259;
}
export interface T259 {
  a?: T260;
}
export interface T260 {
  a?: T261;
}
export interface T261 {
  a?: T262;
}
export interface T262 {
  a?: T263;
}
export interface T263 {
  a?: T264;
}
export interface T264 {
  a?: T265;
}
export interface T265 {
  a?: T266;
}
export interface T266 {
  a?: T267;
}
export interface T267 {
  a?: T268;
}
export interface T268 {
  a?: T269;
}
export interface T269 {
  a?: T270;
}
export interface T270 {
  a?: T271;
}
export interface T271 {
  a?: T272;
}
export interface T272 {
  a?: T273;
}
export interface T273 {
  a?: T274;
}
export interface T274 {
  a?: T275;
}
export interface T275 {
  a?: T276;
}
export interface T276 {
  a?: T277;
}
export interface T277 {
  a?: T278;
}
export interface T278 {
  a?: T279;
}
export interface T279 {
  a?: T280;
}
export interface T280 {
  a?: T281;
}
export interface T281 {
  a?: T282;
}
export interface T282 {
  a?: T283;
}
export interface T283 {
  a?: T284;
}
export interface T284 {
  a?: T285;
}
export interface T285 {
  a?: T286;
}
export interface T286 {
  a?: T287;
}
export interface T287 {
  a?: T288;
}
export interface T288 {
  a?: T289;
}
export interface T289 {
  a?: T290;
}
export interface T290 {
  a?: T291;
}
export interface T291 {
  a?: T292;
}
export interface T292 {
  a?: T293;
}
export interface T293 {
  a?: T294;
}
export interface T294 {
  a?: T295;
}
export interface T295 {
  a?: T296;
}
export interface T296 {
  a?: T297;
}
export interface T297 {
  a?: T298;
}
export interface T298 {
  a?: T299;
}
export interface T299 {
  a?: T300;
}
export interface T300 {
  a?: T301;
}
export interface T301 {
  a?: T302;
}
export interface T302 {
  a?: T303;
}
export interface T303 {
  a?: T304;
}
export interface T304 {
  a?: T305;
}
export interface T305 {
  a?: T306;
}
export interface T306 {
  a?: T307;
}
export interface T307 {
  a?: T308;
}
export interface T308 {
  a?: T309;
}
export interface T309 {
  a?: T310;
}
export interface T310 {
  a?: T311;
}
export interface T311 {
  a?: T312;
}
export interface T312 {
  a?: T313;
}
export interface T313 {
  a?: T314;
}
export interface T314 {
  a?: T315;
}
export interface T315 {
  a?: T316;
}
export interface T316 {
  a?: T317;
}
export interface T317 {
  a?: T318;
}
export interface T318 {
  a?: T319;
}
export interface T319 {
  a?: T320;
}
export interface T320 {
  a?: T321;
}
export interface T321 {
  a?: T322;
}
export interface T322 {
  a?: T323;
}
export interface T323 {
  a?: T324;
}
export interface T324 {
  a?: T325;
}
export interface T325 {
  a?: T326;
}
export interface T326 {
  a?: T327;
}
export interface T327 {
  a?: T328;
}
export interface T328 {
  a?: T329;
}
export interface T329 {
  a?: T330;
}
export interface T330 {
  a?: T331;
}
export interface T331 {
  a?: T332;
}
export interface T332 {
  a?: T333;
}
export interface T333 {
  a?: T334;
}
export interface T334 {
  a?: T335;
}
export interface T335 {
  a?: T336;
}
export interface T336 {
  a?: T337;
}
export interface T337 {
  a?: T338;
}
export interface T338 {
  a?: T339;
}
export interface T339 {
  a?: T340;
}
export interface T340 {
  a?: T341;
}
export interface T341 {
  a?: T342;
}
export interface T342 {
  a?: T343;
}
export interface T343 {
  a?: T344;
}
export interface T344 {
  a?: T345;
}
export interface T345 {
  a?: T346;
}
export interface T346 {
  a?: T347;
}
export interface T347 {
  a?: T348;
}
export interface T348 {
  a?: T349;
}
export interface T349 {
  a?: T350;
}
export interface T350 {
  a?: T351;
}
export interface T351 {
  a?: T352;
}
export interface T352 {
  a?: T353;
}
export interface T353 {
  a?: T354;
}
export interface T354 {
  a?: T355;
}
export interface T355 {
  a?: T356;
}
export interface T356 {
  a?: T357;
}
export interface T357 {
  a?: T358;
}
export interface T358 {
  a?: T359;
}
export interface T359 {
  a?: T360;
}
export interface T360 {
  a?: T361;
}
export interface T361 {
  a?: T362;
}
export interface T362 {
  a?: T363;
}
export interface T363 {
  a?: T364;
}
export interface T364 {
  a?: T365;
}
export interface T365 {
  a?: T366;
}
export interface T366 {
  a?: T367;
}
export interface T367 {
  a?: T368;
}
export interface T368 {
  a?: T369;
}
export interface T369 {
  a?: T370;
}
export interface T370 {
  a?: T371;
}
export interface T371 {
  a?: T372;
}
export interface T372 {
  a?: T373;
}
export interface T373 {
  a?: T374;
}
export interface T374 {
  a?: T375;
}
export interface T375 {
  a?: T376;
}
export interface T376 {
  a?: T377;
}
export interface T377 {
  a?: T378;
}
export interface T378 {
  a?: T379;
}
export interface T379 {
  a?: T380;
}
export interface T380 {
  a?: T381;
}
export interface T381 {
  a?: T382;
}
export interface T382 {
  a?: T383;
}
export interface T383 {
  a?: T384;
}
export interface T384 {
  a?: T385;
}
export interface T385 {
  a?: T386;
}
export interface T386 {
  a?: T387;
}
export interface T387 {
  a?: T388;
}
export interface T388 {
  a?: T389;
}
export interface T389 {
  a?: T390;
}
export interface T390 {
  a?: T391;
}
export interface T391 {
  a?: T392;
}
export interface T392 {
  a?: T393;
}
export interface T393 {
  a?: T394;
}
export interface T394 {
  a?: T395;
}
export interface T395 {
  a?: T396;
}
export interface T396 {
  a?: T397;
}
export interface T397 {
  a?: T398;
}
export interface T398 {
  a?: T399;
}
export interface T399 {
  a?: T400;
}
export interface T400 {
  a?: T401;
}
export interface T401 {
  a?: T402;
}
export interface T402 {
  a?: T403;
}
export interface T403 {
  a?: T404;
}
export interface T404 {
  a?: T405;
}
export interface T405 {
  a?: T406;
}
export interface T406 {
  a?: T407;
}
export interface T407 {
  a?: T408;
}
export interface T408 {
  a?: T409;
}
export interface T409 {
  a?: T410;
}
export interface T410 {
  a?: T411;
}
export interface T411 {
  a?: T412;
}
export interface T412 {
  a?: T413;
}
export interface T413 {
  a?: T414;
}
export interface T414 {
  a?: T415;
}
export interface T415 {
  a?: T416;
}
export interface T416 {
  a?: T417;
}
export interface T417 {
  a?: T418;
}
export interface T418 {
  a?: T419;
}
export interface T419 {
  a?: T420;
}
export interface T420 {
  a?: T421;
}
export interface T421 {
  a?: T422;
}
export interface T422 {
  a?: T423;
}
export interface T423 {
  a?: T424;
}
export interface T424 {
  a?: T425;
}
export interface T425 {
  a?: T426;
}
export interface T426 {
  a?: T427;
}
export interface T427 {
  a?: T428;
}
export interface T428 {
  a?: T429;
}
export interface T429 {
  a?: T430;
}
export interface T430 {
  a?: T431;
}
export interface T431 {
  a?: T432;
}
export interface T432 {
  a?: T433;
}
export interface T433 {
  a?: T434;
}
export interface T434 {
  a?: T435;
}
export interface T435 {
  a?: T436;
}
export interface T436 {
  a?: T437;
}
export interface T437 {
  a?: T438;
}
export interface T438 {
  a?: T439;
}
export interface T439 {
  a?: T440;
}
export interface T440 {
  a?: T441;
}
export interface T441 {
  a?: T442;
}
export interface T442 {
  a?: T443;
}
export interface T443 {
  a?: T444;
}
export interface T444 {
  a?: T445;
}
export interface T445 {
  a?: T446;
}
export interface T446 {
  a?: T447;
}
export interface T447 {
  a?: T448;
}
export interface T448 {
  a?: T449;
}
export interface T449 {
  a?: T450;
}
export interface T450 {
  a?: T451;
}
export interface T451 {
  a?: T452;
}
export interface T452 {
  a?: T453;
}
export interface T453 {
  a?: T454;
}
export interface T454 {
  a?: T455;
}
export interface T455 {
  a?: T456;
}
export interface T456 {
  a?: T457;
}
export interface T457 {
  a?: T458;
}
export interface T458 {
  a?: T459;
}
export interface T459 {
  a?: T460;
}
export interface T460 {
  a?: T461;
}
export interface T461 {
  a?: T462;
}
export interface T462 {
  a?: T463;
}
export interface T463 {
  a?: T464;
}
export interface T464 {
  a?: T465;
}
export interface T465 {
  a?: T466;
}
export interface T466 {
  a?: T467;
}
export interface T467 {
  a?: T468;
}
export interface T468 {
  a?: T469;
}
export interface T469 {
  a?: T470;
}
export interface T470 {
  a?: T471;
}
export interface T471 {
  a?: T472;
}
export interface T472 {
  a?: T473;
}
export interface T473 {
  a?: T474;
}
export interface T474 {
  a?: T475;
}
export interface T475 {
  a?: T476;
}
export interface T476 {
  a?: T477;
}
export interface T477 {
  a?: T478;
}
export interface T478 {
  a?: T479;
}
export interface T479 {
  a?: T480;
}
export interface T480 {
  a?: T481;
}
export interface T481 {
  a?: T482;
}
export interface T482 {
  a?: T483;
}
export interface T483 {
  a?: T484;
}
export interface T484 {
  a?: T485;
}
export interface T485 {
  a?: T486;
}
export interface T486 {
  a?: T487;
}
export interface T487 {
  a?: T488;
}
export interface T488 {
  a?: T489;
}
export interface T489 {
  a?: T490;
}
export interface T490 {
  a?: T491;
}
export interface T491 {
  a?: T492;
}
export interface T492 {
  a?: T493;
}
export interface T493 {
  a?: T494;
}
export interface T494 {
  a?: T495;
}
export interface T495 {
  a?: T496;
}
export interface T496 {
  a?: T497;
}
export interface T497 {
  a?: T498;
}
export interface T498 {
  a?: T499;
}
export interface T499 {
  a?: T500;
}
export interface T500 {
  a?: T501;
}
export interface T501 {
  a?: T502;
}
export interface T502 {
  a?: T503;
}
export interface T503 {
  a?: T504;
}
export interface T504 {
  a?: T505;
}
export interface T505 {
  a?: T506;
}
export interface T506 {
  a?: T507;
}
export interface T507 {
  a?: T508;
}
export interface T508 {
  a?: T509;
}
export interface T509 {
  a?: T510;
}
export interface T510 {
  a?: T511;
}
export interface T511 {
  a?: T512;
}
export interface T512 {
  a?: T513;
}
export interface T513 {
  a?: T514;
}
export interface T514 {
  a?: T515;
}
export interface T515 {
  a?: T516;
}
export interface T516 {
  a?: T517;
}
export interface T517 {
  a?: T518;
}
export interface T518 {
  a?: T519;
}
export interface T519 {
  a?: T520;
}
export interface T520 {
  a?: T521;
}
export interface T521 {
  a?: T522;
}
export interface T522 {
  a?: T523;
}
export interface T523 {
  a?: T524;
}
export interface T524 {
  a?: T525;
}
export interface T525 {
  a?: T526;
}
export interface T526 {
  a?: T527;
}
export interface T527 {
  a?: T528;
}
export interface T528 {
  a?: T529;
}
export interface T529 {
  a?: T530;
}
export interface T530 {
  a?: T531;
}
export interface T531 {
  a?: T532;
}
export interface T532 {
  a?: T533;
}
export interface T533 {
  a?: T534;
}
export interface T534 {
  a?: T535;
}
export interface T535 {
  a?: T536;
}
export interface T536 {
  a?: T537;
}
export interface T537 {
  a?: T538;
}
export interface T538 {
  a?: T539;
}
export interface T539 {
  a?: T540;
}
export interface T540 {
  a?: T541;
}
export interface T541 {
  a?: T542;
}
export interface T542 {
  a?: T543;
}
export interface T543 {
  a?: T544;
}
export interface T544 {
  a?: T545;
}
export interface T545 {
  a?: T546;
}
export interface T546 {
  a?: T547;
}
export interface T547 {
  a?: T548;
}
export interface T548 {
  a?: T549;
}
export interface T549 {
  a?: T550;
}
export interface T550 {
  a?: T551;
}
export interface T551 {
  a?: T552;
}
export interface T552 {
  a?: T553;
}
export interface T553 {
  a?: T554;
}
export interface T554 {
  a?: T555;
}
export interface T555 {
  a?: T556;
}
export interface T556 {
  a?: T557;
}
export interface T557 {
  a?: T558;
}
export interface T558 {
  a?: T559;
}
export interface T559 {
  a?: T560;
}
export interface T560 {
  a?: T561;
}
export interface T561 {
  a?: T562;
}
export interface T562 {
  a?: T563;
}
export interface T563 {
  a?: T564;
}
export interface T564 {
  a?: T565;
}
export interface T565 {
  a?: T566;
}
export interface T566 {
  a?: T567;
}
export interface T567 {
  a?: T568;
}
export interface T568 {
  a?: T569;
}
export interface T569 {
  a?: T570;
}
export interface T570 {
  a?: T571;
}
export interface T571 {
  a?: T572;
}
export interface T572 {
  a?: T573;
}
export interface T573 {
  a?: T574;
}
export interface T574 {
  a?: T575;
}
export interface T575 {
  a?: T576;
}
export interface T576 {
  a?: T577;
}
export interface T577 {
  a?: T578;
}
export interface T578 {
  a?: T579;
}
export interface T579 {
  a?: T580;
}
export interface T580 {
  a?: T581;
}
export interface T581 {
  a?: T582;
}
export interface T582 {
  a?: T583;
}
export interface T583 {
  a?: T584;
}
export interface T584 {
  a?: T585;
}
export interface T585 {
  a?: T586;
}
export interface T586 {
  a?: T587;
}
export interface T587 {
  a?: T588;
}
export interface T588 {
  a?: T589;
}
export interface T589 {
  a?: T590;
}
export interface T590 {
  a?: T591;
}
export interface T591 {
  a?: T592;
}
export interface T592 {
  a?: T593;
}
export interface T593 {
  a?: T594;
}
export interface T594 {
  a?: T595;
}
export interface T595 {
  a?: T596;
}
export interface T596 {
  a?: T597;
}
export interface T597 {
  a?: T598;
}
export interface T598 {
  a?: T599;
}
export interface T599 {
  a?: T600;
}
export interface T600 {
  a?: T601;
}
export interface T601 {
  a?: T602;
}
export interface T602 {
  a?: T603;
}
export interface T603 {
  a?: T604;
}
export interface T604 {
  a?: T605;
}
export interface T605 {
  a?: T606;
}
export interface T606 {
  a?: T607;
}
export interface T607 {
  a?: T608;
}
export interface T608 {
  a?: T609;
}
export interface T609 {
  a?: T610;
}
export interface T610 {
  a?: T611;
}
export interface T611 {
  a?: T612;
}
export interface T612 {
  a?: T613;
}
export interface T613 {
  a?: T614;
}
export interface T614 {
  a?: T615;
}
export interface T615 {
  a?: T616;
}
export interface T616 {
  a?: T617;
}
export interface T617 {
  a?: T618;
}
export interface T618 {
  a?: T619;
}
export interface T619 {
  a?: T620;
}
export interface T620 {
  a?: T621;
}
export interface T621 {
  a?: T622;
}
export interface T622 {
  a?: T623;
}
export interface T623 {
  a?: T624;
}
export interface T624 {
  a?: T625;
}
export interface T625 {
  a?: T626;
}
export interface T626 {
  a?: T627;
}
export interface T627 {
  a?: T628;
}
export interface T628 {
  a?: T629;
}
export interface T629 {
  a?: T630;
}
export interface T630 {
  a?: T631;
}
export interface T631 {
  a?: T632;
}
export interface T632 {
  a?: T633;
}
export interface T633 {
  a?: T634;
}
export interface T634 {
  a?: T635;
}
export interface T635 {
  a?: T636;
}
export interface T636 {
  a?: T637;
}
export interface T637 {
  a?: T638;
}
export interface T638 {
  a?: T639;
}
export interface T639 {
  a?: T640;
}
export interface T640 {
  a?: T641;
}
export interface T641 {
  a?: T642;
}
export interface T642 {
  a?: T643;
}
export interface T643 {
  a?: T644;
}
export interface T644 {
  a?: T645;
}
export interface T645 {
  a?: T646;
}
export interface T646 {
  a?: T647;
}
export interface T647 {
  a?: T648;
}
export interface T648 {
  a?: T649;
}
export interface T649 {
  a?: T650;
}
export interface T650 {
  a?: T651;
}
export interface T651 {
  a?: T652;
}
export interface T652 {
  a?: T653;
}
export interface T653 {
  a?: T654;
}
export interface T654 {
  a?: T655;
}
export interface T655 {
  a?: T656;
}
export interface T656 {
  a?: T657;
}
export interface T657 {
  a?: T658;
}
export interface T658 {
  a?: T659;
}
export interface T659 {
  a?: T660;
}
export interface T660 {
  a?: T661;
}
export interface T661 {
  a?: T662;
}
export interface T662 {
  a?: T663;
}
export interface T663 {
  a?: T664;
}
export interface T664 {
  a?: T665;
}
export interface T665 {
  a?: T666;
}
export interface T666 {
  a?: T667;
}
export interface T667 {
  a?: T668;
}
export interface T668 {
  a?: T669;
}
export interface T669 {
  a?: T670;
}
export interface T670 {
  a?: T671;
}
export interface T671 {
  a?: T672;
}
export interface T672 {
  a?: T673;
}
export interface T673 {
  a?: T674;
}
export interface T674 {
  a?: T675;
}
export interface T675 {
  a?: T676;
}
export interface T676 {
  a?: T677;
}
export interface T677 {
  a?: T678;
}
export interface T678 {
  a?: T679;
}
export interface T679 {
  a?: T680;
}
export interface T680 {
  a?: T681;
}
export interface T681 {
  a?: T682;
}
export interface T682 {
  a?: T683;
}
export interface T683 {
  a?: T684;
}
export interface T684 {
  a?: T685;
}
export interface T685 {
  a?: T686;
}
export interface T686 {
  a?: T687;
}
export interface T687 {
  a?: T688;
}
export interface T688 {
  a?: T689;
}
export interface T689 {
  a?: T690;
}
export interface T690 {
  a?: T691;
}
export interface T691 {
  a?: T692;
}
export interface T692 {
  a?: T693;
}
export interface T693 {
  a?: T694;
}
export interface T694 {
  a?: T695;
}
export interface T695 {
  a?: T696;
}
export interface T696 {
  a?: T697;
}
export interface T697 {
  a?: T698;
}
export interface T698 {
  a?: T699;
}
export interface T699 {
  a?: T700;
}
export interface T700 {
  a?: T701;
}
export interface T701 {
  a?: T702;
}
export interface T702 {
  a?: T703;
}
export interface T703 {
  a?: T704;
}
export interface T704 {
  a?: T705;
}
export interface T705 {
  a?: T706;
}
export interface T706 {
  a?: T707;
}
export interface T707 {
  a?: T708;
}
export interface T708 {
  a?: T709;
}
export interface T709 {
  a?: T710;
}
export interface T710 {
  a?: T711;
}
export interface T711 {
  a?: T712;
}
export interface T712 {
  a?: T713;
}
export interface T713 {
  a?: T714;
}
export interface T714 {
  a?: T715;
}
export interface T715 {
  a?: T716;
}
export interface T716 {
  a?: T717;
}
export interface T717 {
  a?: T718;
}
export interface T718 {
  a?: T719;
}
export interface T719 {
  a?: T720;
}
export interface T720 {
  a?: T721;
}
export interface T721 {
  a?: T722;
}
export interface T722 {
  a?: T723;
}
export interface T723 {
  a?: T724;
}
export interface T724 {
  a?: T725;
}
export interface T725 {
  a?: T726;
}
export interface T726 {
  a?: T727;
}
export interface T727 {
  a?: T728;
}
export interface T728 {
  a?: T729;
}
export interface T729 {
  a?: T730;
}
export interface T730 {
  a?: T731;
}
export interface T731 {
  a?: T732;
}
export interface T732 {
  a?: T733;
}
export interface T733 {
  a?: T734;
}
export interface T734 {
  a?: T735;
}
export interface T735 {
  a?: T736;
}
export interface T736 {
  a?: T737;
}
export interface T737 {
  a?: T738;
}
export interface T738 {
  a?: T739;
}
export interface T739 {
  a?: T740;
}
export interface T740 {
  a?: T741;
}
export interface T741 {
  a?: T742;
}
export interface T742 {
  a?: T743;
}
export interface T743 {
  a?: T744;
}
export interface T744 {
  a?: T745;
}
export interface T745 {
  a?: T746;
}
export interface T746 {
  a?: T747;
}
export interface T747 {
  a?: T748;
}
export interface T748 {
  a?: T749;
}
export interface T749 {
  a?: T750;
}
export interface T750 {
  a?: T751;
}
export interface T751 {
  a?: T752;
}
export interface T752 {
  a?: T753;
}
export interface T753 {
  a?: T754;
}
export interface T754 {
  a?: T755;
}
export interface T755 {
  a?: T756;
}
export interface T756 {
  a?: T757;
}
export interface T757 {
  a?: T758;
}
export interface T758 {
  a?: T759;
}
export interface T759 {
  a?: T760;
}
export interface T760 {
  a?: T761;
}
export interface T761 {
  a?: T762;
}
export interface T762 {
  a?: T763;
}
export interface T763 {
  a?: T764;
}
export interface T764 {
  a?: T765;
}
export interface T765 {
  a?: T766;
}
export interface T766 {
  a?: T767;
}
export interface T767 {
  a?: T768;
}
export interface T768 {
  a?: T769;
}
export interface T769 {
  a?: T770;
}
export interface T770 {
  a?: T771;
}
export interface T771 {
  a?: T772;
}
export interface T772 {
  a?: T773;
}
export interface T773 {
  a?: T774;
}
export interface T774 {
  a?: T775;
}
export interface T775 {
  a?: T776;
}
export interface T776 {
  a?: T777;
}
export interface T777 {
  a?: T778;
}
export interface T778 {
  a?: T779;
}
export interface T779 {
  a?: T780;
}
export interface T780 {
  a?: T781;
}
export interface T781 {
  a?: T782;
}
export interface T782 {
  a?: T783;
}
export interface T783 {
  a?: T784;
}
export interface T784 {
  a?: T785;
}
export interface T785 {
  a?: T786;
}
export interface T786 {
  a?: T787;
}
export interface T787 {
  a?: T788;
}
export interface T788 {
  a?: T789;
}
export interface T789 {
  a?: T790;
}
export interface T790 {
  a?: T791;
}
export interface T791 {
  a?: T792;
}
export interface T792 {
  a?: T793;
}
export interface T793 {
  a?: T794;
}
export interface T794 {
  a?: T795;
}
export interface T795 {
  a?: T796;
}
export interface T796 {
  a?: T797;
}
export interface T797 {
  a?: T798;
}
export interface T798 {
  a?: T799;
}
export interface T799 {
  a?: T800;
}
export interface T800 {
  a?: T801;
}
export interface T801 {
  a?: T802;
}
export interface T802 {
  a?: T803;
}
export interface T803 {
  a?: T804;
}
export interface T804 {
  a?: T805;
}
export interface T805 {
  a?: T806;
}
export interface T806 {
  a?: T807;
}
export interface T807 {
  a?: T808;
}
export interface T808 {
  a?: T809;
}
export interface T809 {
  a?: T810;
}
export interface T810 {
  a?: T811;
}
export interface T811 {
  a?: T812;
}
export interface T812 {
  a?: T813;
}
export interface T813 {
  a?: T814;
}
export interface T814 {
  a?: T815;
}
export interface T815 {
  a?: T816;
}
export interface T816 {
  a?: T817;
}
export interface T817 {
  a?: T818;
}
export interface T818 {
  a?: T819;
}
export interface T819 {
  a?: T820;
}
export interface T820 {
  a?: T821;
}
export interface T821 {
  a?: T822;
}
export interface T822 {
  a?: T823;
}
export interface T823 {
  a?: T824;
}
export interface T824 {
  a?: T825;
}
export interface T825 {
  a?: T826;
}
export interface T826 {
  a?: T827;
}
export interface T827 {
  a?: T828;
}
export interface T828 {
  a?: T829;
}
export interface T829 {
  a?: T830;
}
export interface T830 {
  a?: T831;
}
export interface T831 {
  a?: T832;
}
export interface T832 {
  a?: T833;
}
export interface T833 {
  a?: T834;
}
export interface T834 {
  a?: T835;
}
export interface T835 {
  a?: T836;
}
export interface T836 {
  a?: T837;
}
export interface T837 {
  a?: T838;
}
export interface T838 {
  a?: T839;
}
export interface T839 {
  a?: T840;
}
export interface T840 {
  a?: T841;
}
export interface T841 {
  a?: T842;
}
export interface T842 {
  a?: T843;
}
export interface T843 {
  a?: T844;
}
export interface T844 {
  a?: T845;
}
export interface T845 {
  a?: T846;
}
export interface T846 {
  a?: T847;
}
export interface T847 {
  a?: T848;
}
export interface T848 {
  a?: T849;
}
export interface T849 {
  a?: T850;
}
export interface T850 {
  a?: T851;
}
export interface T851 {
  a?: T852;
}
export interface T852 {
  a?: T853;
}
export interface T853 {
  a?: T854;
}
export interface T854 {
  a?: T855;
}
export interface T855 {
  a?: T856;
}
export interface T856 {
  a?: T857;
}
export interface T857 {
  a?: T858;
}
export interface T858 {
  a?: T859;
}
export interface T859 {
  a?: T860;
}
export interface T860 {
  a?: T861;
}
export interface T861 {
  a?: T862;
}
export interface T862 {
  a?: T863;
}
export interface T863 {
  a?: T864;
}
export interface T864 {
  a?: T865;
}
export interface T865 {
  a?: T866;
}
export interface T866 {
  a?: T867;
}
export interface T867 {
  a?: T868;
}
export interface T868 {
  a?: T869;
}
export interface T869 {
  a?: T870;
}
export interface T870 {
  a?: T871;
}
export interface T871 {
  a?: T872;
}
export interface T872 {
  a?: T873;
}
export interface T873 {
  a?: T874;
}
export interface T874 {
  a?: T875;
}
export interface T875 {
  a?: T876;
}
export interface T876 {
  a?: T877;
}
export interface T877 {
  a?: T878;
}
export interface T878 {
  a?: T879;
}
export interface T879 {
  a?: T880;
}
export interface T880 {
  a?: T881;
}
export interface T881 {
  a?: T882;
}
export interface T882 {
  a?: T883;
}
export interface T883 {
  a?: T884;
}
export interface T884 {
  a?: T885;
}
export interface T885 {
  a?: T886;
}
export interface T886 {
  a?: T887;
}
export interface T887 {
  a?: T888;
}
export interface T888 {
  a?: T889;
}
export interface T889 {
  a?: T890;
}
export interface T890 {
  a?: T891;
}
export interface T891 {
  a?: T892;
}
export interface T892 {
  a?: T893;
}
export interface T893 {
  a?: T894;
}
export interface T894 {
  a?: T895;
}
export interface T895 {
  a?: T896;
}
export interface T896 {
  a?: T897;
}
export interface T897 {
  a?: T898;
}
export interface T898 {
  a?: T899;
}
export interface T899 {
  a?: T900;
}
export interface T900 {
  a?: T901;
}
export interface T901 {
  a?: T902;
}
export interface T902 {
  a?: T903;
}
export interface T903 {
  a?: T904;
}
export interface T904 {
  a?: T905;
}
export interface T905 {
  a?: T906;
}
export interface T906 {
  a?: T907;
}
export interface T907 {
  a?: T908;
}
export interface T908 {
  a?: T909;
}
export interface T909 {
  a?: T910;
}
export interface T910 {
  a?: T911;
}
export interface T911 {
  a?: T912;
}
export interface T912 {
  a?: T913;
}
export interface T913 {
  a?: T914;
}
export interface T914 {
  a?: T915;
}
export interface T915 {
  a?: T916;
}
export interface T916 {
  a?: T917;
}
export interface T917 {
  a?: T918;
}
export interface T918 {
  a?: T919;
}
export interface T919 {
  a?: T920;
}
export interface T920 {
  a?: T921;
}
export interface T921 {
  a?: T922;
}
export interface T922 {
  a?: T923;
}
export interface T923 {
  a?: T924;
}
export interface T924 {
  a?: T925;
}
export interface T925 {
  a?: T926;
}
export interface T926 {
  a?: T927;
}
export interface T927 {
  a?: T928;
}
export interface T928 {
  a?: T929;
}
export interface T929 {
  a?: T930;
}
export interface T930 {
  a?: T931;
}
export interface T931 {
  a?: T932;
}
export interface T932 {
  a?: T933;
}
export interface T933 {
  a?: T934;
}
export interface T934 {
  a?: T935;
}
export interface T935 {
  a?: T936;
}
export interface T936 {
  a?: T937;
}
export interface T937 {
  a?: T938;
}
export interface T938 {
  a?: T939;
}
export interface T939 {
  a?: T940;
}
export interface T940 {
  a?: T941;
}
export interface T941 {
  a?: T942;
}
export interface T942 {
  a?: T943;
}
export interface T943 {
  a?: T944;
}
export interface T944 {
  a?: T945;
}
export interface T945 {
  a?: T946;
}
export interface T946 {
  a?: T947;
}
export interface T947 {
  a?: T948;
}
export interface T948 {
  a?: T949;
}
export interface T949 {
  a?: T950;
}
export interface T950 {
  a?: T951;
}
export interface T951 {
  a?: T952;
}
export interface T952 {
  a?: T953;
}
export interface T953 {
  a?: T954;
}
export interface T954 {
  a?: T955;
}
export interface T955 {
  a?: T956;
}
export interface T956 {
  a?: T957;
}
export interface T957 {
  a?: T958;
}
export interface T958 {
  a?: T959;
}
export interface T959 {
  a?: T960;
}
export interface T960 {
  a?: T961;
}
export interface T961 {
  a?: T962;
}
export interface T962 {
  a?: T963;
}
export interface T963 {
  a?: T964;
}
export interface T964 {
  a?: T965;
}
export interface T965 {
  a?: T966;
}
export interface T966 {
  a?: T967;
}
export interface T967 {
  a?: T968;
}
export interface T968 {
  a?: T969;
}
export interface T969 {
  a?: T970;
}
export interface T970 {
  a?: T971;
}
export interface T971 {
  a?: T972;
}
export interface T972 {
  a?: T973;
}
export interface T973 {
  a?: T974;
}
export interface T974 {
  a?: T975;
}
export interface T975 {
  a?: T976;
}
export interface T976 {
  a?: T977;
}
export interface T977 {
  a?: T978;
}
export interface T978 {
  a?: T979;
}
export interface T979 {
  a?: T980;
}
export interface T980 {
  a?: T981;
}
export interface T981 {
  a?: T982;
}
export interface T982 {
  a?: T983;
}
export interface T983 {
  a?: T984;
}
export interface T984 {
  a?: T985;
}
export interface T985 {
  a?: T986;
}
export interface T986 {
  a?: T987;
}
export interface T987 {
  a?: T988;
}
export interface T988 {
  a?: T989;
}
export interface T989 {
  a?: T990;
}
export interface T990 {
  a?: T991;
}
export interface T991 {
  a?: T992;
}
export interface T992 {
  a?: T993;
}
export interface T993 {
  a?: T994;
}
export interface T994 {
  a?: T995;
}
export interface T995 {
  a?: T996;
}
export interface T996 {
  a?: T997;
}
export interface T997 {
  a?: T998;
}
export interface T998 {
  a?: T999;
}
export interface T999 {
  a?: T1000;
}
export interface T1000 {
  v: string;
}
// +kubebuilder:object:root=true
export interface Deep {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: T0;
}
